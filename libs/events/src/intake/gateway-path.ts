// How the Argo Server's HTTP stack sees a request path: Go's http.ServeMux cleans it (redirect), then
// grpc-gateway v1 matches the decoded path segment by segment, reading a trailing `:verb`.

/** Go's path.Clean for an absolute path, keeping a trailing slash as http.ServeMux does. */
export function cleanPath(path: string): string {
  if (path === '') return '/';
  const abs = path.startsWith('/') ? path : `/${path}`;
  const out: string[] = [];
  for (const segment of abs.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  let cleaned = `/${out.join('/')}`;
  if (abs.endsWith('/') && cleaned !== '/') cleaned += '/';
  return cleaned;
}

export type GatewayRoute =
  | { kind: 'event'; namespace: string; discriminator: string }
  | { kind: 'list-bindings'; namespace: string }
  | { kind: 'list-workflows'; namespace: string }
  | { kind: 'none' };

/**
 * Matches the decoded path against the routes this emulator serves. Like grpc-gateway v1 the last segment's
 * `:suffix` is a verb (no route has one, so any colon there means no match), and segments must match exactly
 * in number: `/api/v1/events/argo/` has five (the last empty), `/api/v1/events/argo` four.
 */
export function matchRoute(method: string, decodedPath: string): GatewayRoute {
  const segments = decodedPath.slice(1).split('/');
  if (segments.at(-1)!.includes(':')) return { kind: 'none' };
  const [api, version, resource, namespace, discriminator] = segments;
  if (api !== 'api' || version !== 'v1') return { kind: 'none' };
  if (resource === 'events' && segments.length === 5 && method === 'POST')
    return { kind: 'event', namespace: namespace!, discriminator: discriminator! };
  if (segments.length === 4 && method === 'GET' && namespace !== '') {
    if (resource === 'workflow-event-bindings') return { kind: 'list-bindings', namespace: namespace! };
    if (resource === 'workflows') return { kind: 'list-workflows', namespace: namespace! };
  }
  return { kind: 'none' };
}

/** Go's url.PathUnescape of the raw path; undefined when an escape is invalid (Go answers 400). */
export function decodePath(rawPath: string): string | undefined {
  if (/%(?![0-9a-fA-F]{2})/.test(rawPath)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < rawPath.length; i++) {
    if (rawPath[i] === '%') {
      bytes.push(parseInt(rawPath.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(rawPath[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
