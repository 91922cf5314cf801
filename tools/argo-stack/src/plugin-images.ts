// Our plugin images for the real node, built as users build them: docker/Dockerfile as it is, with only its
// NODE_IMAGE argument given (the Node base built here), by buildah from Debian (no daemon, vfs storage), under
// the name each manifests/<app>/plugin.yaml gives its sidecar; cached by a hash of the build context.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { cacheRoot } from './binaries.js';
import { ensureInstalled } from './debian.js';

/**
 * What an image is made of: the build context's files (.dockerignore keeps package*.json, tsconfig.json, tools,
 * libs and apps, without specs) that the build stage reads (it reads no Markdown). Of tools/, which the Dockerfile copies
 * whole, the build runs tools/build.mjs alone, which imports nothing of tools/ (nor does any app or lib), so an
 * edit of the stack's own code builds no image again.
 */
const CONTEXT = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'docker/Dockerfile',
  'tools/build.mjs',
  'libs',
  'apps',
];

/** Specs (.dockerignore leaves them out of the context) and Markdown (the build reads none). */
const IGNORED = /(\.spec\.ts|\.e2e-spec\.ts|\.md)$/;

function hashTree(hash: ReturnType<typeof createHash>, root: string, path: string): void {
  const full = join(root, path);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort())
      if (name !== 'node_modules' && name !== 'dist') hashTree(hash, root, join(path, name));
  } else if (!IGNORED.test(path)) hash.update(`\0${path}\0`).update(readFileSync(full));
}

/**
 * The image of each app, by the name its manifests give it: a plugin's sidecar in manifests/<app>/plugin.yaml,
 * the shared agent's container in manifests/shared-agent/deployment.yaml.
 */
export function pluginImageRefs(repoRoot: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const app of readdirSync(join(repoRoot, 'manifests'))) {
    const file = ['plugin.yaml', 'deployment.yaml']
      .map((name) => join(repoRoot, 'manifests', app, name))
      .find((path) => existsSync(path));
    if (!file || !existsSync(join(repoRoot, 'apps', app, 'src/main.ts'))) continue;
    const image = /^\s+image: (\S+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
    if (image) out[app] = image;
  }
  return out;
}

/** The Containerfile of the test images (test/argo's own images, on the same Node base). */
const TEST_IMAGE_FILE = 'tools/argo-stack/test-image/Containerfile';

/**
 * The real-Argo suite's test images (`executor-plugins.test/<name>:dev`): each bundle its setup built in
 * dist/test/<name>, with the key of its content. None before the setup ran (`npm run test:argo`).
 */
export function testImageBuilds(repoRoot: string): Array<{ name: string; ref: string; context: string }> {
  const dist = join(repoRoot, 'dist/test');
  if (!existsSync(dist)) return [];
  return readdirSync(dist)
    .filter((name) => existsSync(join(dist, name, 'main.js')))
    .map((name) => ({ name, ref: `executor-plugins.test/${name}:dev`, context: join(dist, name) }));
}

/**
 * Removes the archives an image was built into before (`<name>-<key>.tar`, the key of another context): each
 * change of a source builds every image again, about 150 MiB each.
 */
function pruneOlder(archive: string): void {
  const dir = dirname(archive);
  const name = basename(archive).replace(/-[0-9a-f]{16}\.tar$/, '');
  for (const file of readdirSync(dir))
    if (file !== basename(archive) && new RegExp(`^${name}-[0-9a-f]{16}\\.tar$`).test(file))
      rmSync(join(dir, file), { force: true });
}

/**
 * Builds what is missing of the plugin images and the suite's test images on `base` (an OCI archive of
 * `baseRef`); returns docker archives.
 */
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
  mkdirSync(cache, { recursive: true });
  let pulled = false;
  /** `buildah bud` of one image into its cached docker archive, unless that archive exists. */
  const build = (ref: string, archive: string, bud: string[], what: string) => {
    if (existsSync(archive)) return { ref, archive };
    if (!pulled) {
      buildah(['pull', '--quiet', `oci-archive:${base.archive}`]);
      pulled = true;
    }
    const started = Date.now();
    buildah(['bud', '--isolation', 'chroot', '--build-arg', `NODE_IMAGE=${base.ref}`, '--tag', ref, ...bud]);
    buildah(['push', '--quiet', ref, `docker-archive:${archive}.tmp:${ref}`]);
    renameSync(`${archive}.tmp`, archive);
    pruneOlder(archive);
    log(`built image ${ref} from ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { ref, archive };
  };
  const hash = createHash('sha256').update(readFileSync(base.archive));
  for (const path of CONTEXT) hashTree(hash, repoRoot, path);
  const key = hash.digest('hex').slice(0, 16);
  const images = Object.entries(pluginImageRefs(repoRoot)).map(([app, ref]) =>
    build(
      ref,
      join(cache, `${app}-${key}.tar`),
      [
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
        `APP=${app}`,
        '.',
      ],
      'docker/Dockerfile',
    ),
  );
  for (const test of testImageBuilds(repoRoot)) {
    const testHash = createHash('sha256').update(readFileSync(base.archive));
    hashTree(testHash, repoRoot, TEST_IMAGE_FILE);
    hashTree(testHash, test.context, '.');
    images.push(
      build(
        test.ref,
        join(cache, `test-${test.name}-${testHash.digest('hex').slice(0, 16)}.tar`),
        ['--file', join(repoRoot, TEST_IMAGE_FILE), '--build-arg', `NAME=${test.name}`, test.context],
        `dist/test/${test.name}`,
      ),
    );
  }
  // The build stages' images (each with its node_modules) are not kept: the archives are what the node imports.
  if (pulled) buildah(['rmi', '--all', '--force']);
  return images;
}
