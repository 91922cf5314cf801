/**
 * Jenkins URL paths. A job inside folders is `/job/a/job/b/job/c`, each item name URL-encoded once. A
 * multibranch branch job is stored under its already-encoded name (`feature%2Fx`), so a branch name is
 * encoded twice (`/job/repo/job/feature%252Fx`).
 */
export function jobPath(job: string, branch?: string): string {
  const names = job
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .map(encodeURIComponent);
  if (branch !== undefined) names.push(encodeURIComponent(encodeURIComponent(branch)));
  return names.map((name) => `/job/${name}`).join('');
}

/** `folder/app`, `repo [feature/x]` for a multibranch branch. */
export function jobLabel(job: string, branch?: string): string {
  const name = job.replace(/^\/+|\/+$/g, '');
  return branch === undefined ? name : `${name} [${branch}]`;
}

/** The queue id in a `Location: http://host/queue/item/123/` header. */
export function queueIdFromLocation(location: unknown): number | undefined {
  if (typeof location !== 'string') return undefined;
  const m = /\/queue\/item\/(\d+)\/?$/.exec(location.split('?')[0]);
  return m ? Number(m[1]) : undefined;
}
