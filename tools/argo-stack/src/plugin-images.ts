// Our plugin images for the real node, built as users build them: docker/Dockerfile as it is, with only its
// NODE_IMAGE argument given (the Node base built here), by buildah from Debian (no daemon, vfs storage), under
// the name each manifests/<app>/plugin.yaml gives its sidecar; cached by a hash of the build context.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from './binaries.js';
import { ensureInstalled } from './debian.js';

/** What the Dockerfile's build context holds (.dockerignore keeps package*.json, tsconfig.json, tools, libs, apps). */
const CONTEXT = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'docker/Dockerfile',
  'tools',
  'libs',
  'apps',
];

function hashTree(hash: ReturnType<typeof createHash>, root: string, path: string): void {
  const full = join(root, path);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort())
      if (name !== 'node_modules' && name !== 'dist') hashTree(hash, root, join(path, name));
  } else hash.update(`\0${path}\0`).update(readFileSync(full));
}

/** The image each app's sidecar names in manifests/<app>/plugin.yaml. */
export function pluginImageRefs(repoRoot: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const app of readdirSync(join(repoRoot, 'manifests'))) {
    const file = join(repoRoot, 'manifests', app, 'plugin.yaml');
    if (!existsSync(file)) continue;
    const image = /^\s+image: (\S+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
    if (image) out[app] = image;
  }
  return out;
}

/** Builds what is missing of the plugin images on `base` (an OCI archive of `baseRef`); returns docker archives. */
export function ensurePluginImages(
  repoRoot: string,
  base: { ref: string; archive: string },
  log: (line: string) => void,
): Array<{ ref: string; archive: string }> {
  ensureInstalled(['buildah'], log);
  const cache = join(cacheRoot(), 'node', 'plugins');
  const storage = join(cacheRoot(), 'node', 'buildah');
  const buildah = (args: string[]) =>
    execFileSync(
      'buildah',
      [
        '--storage-driver',
        'vfs',
        '--root',
        join(storage, 'root'),
        '--runroot',
        join(storage, 'run'),
        ...args,
      ],
      { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
    );
  const hash = createHash('sha256').update(readFileSync(base.archive));
  for (const path of CONTEXT) hashTree(hash, repoRoot, path);
  const key = hash.digest('hex').slice(0, 16);
  mkdirSync(cache, { recursive: true });
  let pulled = false;
  const images = Object.entries(pluginImageRefs(repoRoot)).map(([app, ref]) => {
    const archive = join(cache, `${app}-${key}.tar`);
    if (existsSync(archive)) return { ref, archive };
    if (!pulled) {
      buildah(['pull', '--quiet', `oci-archive:${base.archive}`]);
      pulled = true;
    }
    const started = Date.now();
    buildah([
      'bud',
      '--isolation',
      'chroot',
      '--network',
      'host',
      // The build stage's npm ci: this machine's npm cache and its CA bundle (the registry may be reached
      // through a proxy whose CA only this machine trusts); neither stays in the image.
      '--volume',
      `${join(process.env.HOME ?? '/root', '.npm')}:/root/.npm`,
      '--volume',
      '/etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro',
      '--file',
      'docker/Dockerfile',
      '--build-arg',
      `NODE_IMAGE=${base.ref}`,
      '--build-arg',
      `APP=${app}`,
      '--tag',
      ref,
      '.',
    ]);
    buildah(['push', '--quiet', ref, `docker-archive:${archive}.tmp:${ref}`]);
    renameSync(`${archive}.tmp`, archive);
    log(`built image ${ref} from docker/Dockerfile in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { ref, archive };
  });
  // The build stages' images (each with its node_modules) are not kept: the archives are what the node imports.
  if (pulled) buildah(['rmi', '--all', '--force']);
  return images;
}
