// The emulator's stand-in for Kubernetes authentication and RBAC: a small YAML/JSON file that maps bearer
// tokens to an identity and the permissions the Argo Server's event path exercises.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The four permissions the event path uses, as `<verb> <resource>`. */
export const PERMISSIONS = [
  'list workfloweventbindings',
  'get workflowtemplates',
  'get clusterworkflowtemplates',
  'create workflows',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The emulator extra `GET /api/v1/workflows/{ns}` needs this one; it is not part of the default set. */
export const LIST_WORKFLOWS = 'list workflows';

export interface TokenEntry {
  /** What clients send as `Authorization: Bearer <token>`. */
  token: string;
  /** The `sub` claim; `system:serviceaccount:<ns>:<sa>` for a ServiceAccount token. Optional. */
  subject?: string;
  email?: string;
  preferredUsername?: string;
  /** Namespaces the namespaced permissions apply to; absent = every namespace. */
  namespaces?: string[];
  permissions: string[];
}

export interface WebhookClient {
  type: 'github' | 'gitlab';
  secret: string;
}

export interface TokensConfig {
  tokens: TokenEntry[];
  /**
   * Per namespace, the Secret `argo-workflows-webhook-clients`: ServiceAccount name → client. Maps, as the
   * namespace comes from the request path (`constructor` must find nothing).
   */
  webhookClients: Map<string, Map<string, WebhookClient>>;
}

const DEFAULT_PERMISSIONS: string[] = [...PERMISSIONS, LIST_WORKFLOWS];

/** Parses and checks a tokens file; every problem names the entry and field. */
export function parseTokensConfig(text: string, source = 'tokens'): TokensConfig {
  const problems: string[] = [];
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new Error(`${source}: ${(err as Error).message}`, { cause: err });
  }
  const root = (doc ?? {}) as Record<string, unknown>;
  if (typeof root !== 'object' || Array.isArray(root)) throw new Error(`${source}: expected a mapping`);
  for (const key of Object.keys(root))
    if (key !== 'tokens' && key !== 'webhookClients') problems.push(`${key}: unknown field`);
  const tokens: TokenEntry[] = [];
  const list = root.tokens ?? [];
  if (!Array.isArray(list)) problems.push('tokens: must be a list');
  else list.forEach((raw, i) => tokens.push(parseToken(raw, `tokens[${i}]`, problems)));
  const seen = new Set<string>();
  for (const t of tokens) {
    if (seen.has(t.token)) problems.push(`tokens: the same token is listed twice (subject ${t.subject})`);
    seen.add(t.token);
  }
  const webhookClients = parseWebhookClients(root.webhookClients, problems);
  if (problems.length > 0) throw new Error(`${source}: ${problems.join('; ')}`);
  return { tokens, webhookClients };
}

function parseToken(raw: unknown, where: string, problems: string[]): TokenEntry {
  const entry = (raw ?? {}) as Record<string, unknown>;
  const known = ['token', 'subject', 'email', 'preferredUsername', 'namespaces', 'permissions'];
  for (const key of Object.keys(entry))
    if (!known.includes(key)) problems.push(`${where}.${key}: unknown field`);
  const str = (name: string, required = false): string | undefined => {
    const v = entry[name];
    if (v === undefined || v === null) {
      if (required) problems.push(`${where}.${name}: is required`);
      return undefined;
    }
    if (typeof v !== 'string' || v === '') problems.push(`${where}.${name}: must be a non-empty string`);
    return typeof v === 'string' ? v : undefined;
  };
  const token = str('token', true) ?? '';
  if (/\s/.test(token)) problems.push(`${where}.token: must not contain spaces`);
  const strings = (name: string): string[] | undefined => {
    const v = entry[name];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      problems.push(`${where}.${name}: must be a list of strings`);
    return Array.isArray(v) ? v.map(String) : undefined;
  };
  const permissions = strings('permissions') ?? DEFAULT_PERMISSIONS;
  for (const p of permissions)
    if (p !== '*' && ![...PERMISSIONS, LIST_WORKFLOWS].includes(p))
      problems.push(
        `${where}.permissions: unknown permission "${p}" (use ${[...PERMISSIONS, LIST_WORKFLOWS].map((x) => `"${x}"`).join(', ')} or "*")`,
      );
  return {
    token,
    subject: str('subject'),
    email: str('email'),
    preferredUsername: str('preferredUsername'),
    namespaces: strings('namespaces'),
    permissions,
  };
}

function parseWebhookClients(raw: unknown, problems: string[]): Map<string, Map<string, WebhookClient>> {
  const out = new Map<string, Map<string, WebhookClient>>();
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push('webhookClients: must map namespace → ServiceAccount → {type, secret}');
    return out;
  }
  for (const [namespace, clients] of Object.entries(raw as Record<string, unknown>)) {
    const accounts = new Map<string, WebhookClient>();
    out.set(namespace, accounts);
    for (const [sa, c] of Object.entries((clients ?? {}) as Record<string, unknown>)) {
      const client = (c ?? {}) as Record<string, unknown>;
      const where = `webhookClients.${namespace}.${sa}`;
      if (client.type !== 'github' && client.type !== 'gitlab')
        problems.push(`${where}.type: must be github or gitlab (the vendors this emulator verifies)`);
      if (typeof client.secret !== 'string' || client.secret === '')
        problems.push(`${where}.secret: must be a non-empty string`);
      accounts.set(sa, { type: client.type as WebhookClient['type'], secret: String(client.secret) });
    }
  }
  return out;
}

export function loadTokensFile(path: string): TokensConfig {
  return parseTokensConfig(readFileSync(path, 'utf8'), path);
}
