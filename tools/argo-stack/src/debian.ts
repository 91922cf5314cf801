// Debian packages for the real node: the ones it runs on this machine (containerd, runc, the CNI plugins,
// iptables) are installed with apt-get when missing; the ones its images are made of are downloaded into the
// cache by their SHA-256 and unpacked, never installed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const apt = (args: string[], cwd?: string) =>
  execFileSync('apt-get', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
  });

function installed(name: string): boolean {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' }).endsWith(
      ' installed',
    );
  } catch {
    return false;
  }
}

/** `apt-get install -y` of those of `packages` that are not installed yet (nothing when all are). */
export function ensureInstalled(packages: string[], log: (line: string) => void): void {
  const missing = packages.filter((p) => !installed(p));
  if (missing.length === 0) return;
  log(`installing ${missing.join(', ')} (apt-get)`);
  try {
    apt(['install', '-y', '--no-install-recommends', ...missing]);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', ...missing]);
  }
}

export interface DebFile {
  name: string;
  path: string;
  sha256: string;
}

/**
 * The .deb files of `packages` (their candidate versions, no dependencies resolved: the image lists what it
 * holds), downloaded once into `dir` under their SHA-256 as apt reports it.
 */
export function downloadDebs(packages: string[], dir: string): DebFile[] {
  if (packages.length === 0) return [];
  mkdirSync(dir, { recursive: true });
  const uris = apt(['download', '--print-uris', ...packages])
    .split('\n')
    .map((line) => /^'([^']+)' (\S+) \d+ SHA256:([0-9a-f]{64})$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null);
  if (uris.length !== packages.length)
    throw new Error(`apt-get download --print-uris named ${uris.length} of ${packages.length} packages`);
  return uris.map(([, , file, sha256]) => {
    const path = join(dir, `${sha256}.deb`);
    if (!existsSync(path)) {
      apt(['download', file.replace(/_.*/, '')], dir);
      renameSync(join(dir, file), path);
    }
    return { name: file, path, sha256 };
  });
}

/** Unpacks .deb files into a root filesystem (dpkg-deb -x: the files, no maintainer scripts). */
export function unpackDebs(debs: DebFile[], rootfs: string): void {
  mkdirSync(rootfs, { recursive: true });
  for (const deb of debs) execFileSync('dpkg-deb', ['-x', deb.path, rootfs]);
}
