// The shell lines that give a container its mounts inside its own mount namespace (`ip netns exec` makes one).
import { statSync } from 'node:fs';

export interface BindMount {
  source: string;
  target: string;
  readOnly?: boolean;
}

/**
 * Where the sources are bound first. A container may mount over a folder that holds the sources of its other
 * mounts (Argo's wait container mounts an emptyDir at /tmp, and a stack made in /tmp keeps its pods' volumes
 * there), so every source is reached through this stage before any target is mounted. A tmpfs over it is private
 * to the container's namespace; the folder itself exists on the host.
 */
export const MOUNT_STAGE = '/run/argo-stack-stage';

export const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Parents before their children, as a container runtime orders them; stable otherwise. */
function byDepth(mounts: BindMount[]): BindMount[] {
  const depth = (p: string) => p.split('/').filter(Boolean).length;
  return mounts
    .map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.target) - depth(b.m.target) || a.i - b.i)
    .map(({ m }) => m);
}

export function mountScript(
  mounts: BindMount[],
  isDirectory = (p: string) => statSync(p).isDirectory(),
): string[] {
  if (mounts.length === 0) return [];
  const ordered = byDepth(mounts);
  const make = (dir: boolean, path: string) => (dir ? `mkdir -p ${quote(path)}` : `touch ${quote(path)}`);
  const lines = [`mount -t tmpfs -o size=64k,mode=0700 argo-stack-stage ${MOUNT_STAGE}`];
  const dirs = ordered.map((m) => isDirectory(m.source));
  ordered.forEach((m, i) => {
    lines.push(make(dirs[i], `${MOUNT_STAGE}/${i}`), `mount --bind ${quote(m.source)} ${MOUNT_STAGE}/${i}`);
  });
  ordered.forEach((m, i) => {
    if (!dirs[i]) lines.push(`mkdir -p ${quote(m.target.replace(/\/[^/]*$/, '') || '/')}`);
    lines.push(make(dirs[i], m.target), `mount --bind ${MOUNT_STAGE}/${i} ${quote(m.target)}`);
    if (m.readOnly) lines.push(`mount -o remount,bind,ro ${quote(m.target)}`);
  });
  lines.push(`umount -l ${MOUNT_STAGE}`);
  return lines;
}
