// The real node's image mirror: the CNCF distribution registry (built from its pinned module) on loopback, which
// containerd pulls every registry host our images name from (docker.io, quay.io, ghcr.io, registry.k8s.io, ...),
// as a cluster's nodes pull through a mirror. The images built here are pushed to it with skopeo (Debian's);
// the kubelet pulls them as on a cluster, the pull time included.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, ensureBinarySet } from './binaries.js';
import { ensureInstalled } from './debian.js';
import { exitedLine, freePort, startProcess, until, type StackState } from './stack.js';

/** An image built here: its name, its archive, and the archive's format as skopeo names it. */
export interface BuiltImage {
  ref: string;
  archive: string;
  transport: 'oci-archive' | 'docker-archive';
}

/** Hosts every node mirrors, whether or not an image of theirs is pushed: a pull of anything else fails there. */
const ALWAYS_MIRRORED = ['docker.io', 'quay.io', 'ghcr.io', 'registry.k8s.io'];

/** Where a host's images come from when the mirror lacks them (docker.io's API is registry-1.docker.io). */
const UPSTREAM: Record<string, string> = { 'docker.io': 'https://registry-1.docker.io' };

/**
 * An image name as the kubelet pulls it: `alpine:3.20` is `docker.io/library/alpine:3.20`, `user/app:1` is
 * `docker.io/user/app:1` (a first part without `.` or `:` that is not `localhost` is no registry host).
 */
export function qualified(ref: string): string {
  const slash = ref.indexOf('/');
  if (slash < 0) return `docker.io/library/${ref}`;
  const first = ref.slice(0, slash);
  return /[.:]/.test(first) || first === 'localhost' ? ref : `docker.io/${ref}`;
}

/** The registry host of an image name. */
export function hostOf(ref: string): string {
  const name = qualified(ref);
  return name.slice(0, name.indexOf('/'));
}

/** The name an image has in the mirror: the registry host becomes the first part of its path. */
export function mirroredName(port: number, ref: string): string {
  return `127.0.0.1:${port}/${qualified(ref)}`;
}

/**
 * containerd's hosts.toml of one registry host: pulls go to the mirror's `/v2/<host>/...` (override_path: the
 * path is the mirror's API root), the upstream stays the fallback.
 */
export function hostsToml(port: number, host: string): string {
  return [
    `server = "${UPSTREAM[host] ?? `https://${host}`}"`,
    '',
    `[host."http://127.0.0.1:${port}/v2/${host}"]`,
    '  capabilities = ["pull", "resolve"]',
    '  override_path = true',
    '',
  ].join('\n');
}

/** The registry's configuration: filesystem storage in the cache (pushed blobs stay for the next stack). */
export function registryConfig(port: number, storage: string): string {
  return [
    'version: 0.1',
    'log:',
    '  level: info',
    '  formatter: json',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${storage}`,
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: 127.0.0.1:${port}`,
    '',
  ].join('\n');
}

export interface ImageMirror {
  port: number;
  /** containerd's `config_path`: a hosts.toml per mirrored host. */
  hostsDir: string;
}

/** Starts the stack's registry and writes containerd's hosts configuration for `hosts` and the usual ones. */
export async function startImageMirror(
  state: StackState,
  dir: string,
  hosts: string[],
  log: (line: string) => void,
): Promise<ImageMirror> {
  const bin = await ensureBinarySet(state.repoRoot, 'registry', log);
  const port = await freePort('127.0.0.1');
  const storage = join(cacheRoot(), 'node', 'registry');
  mkdirSync(storage, { recursive: true });
  writeFileSync(join(dir, 'registry.yml'), registryConfig(port, storage));
  collectGarbage(join(bin, 'registry'), join(dir, 'registry.yml'), storage, log);
  const registry = startProcess(state, 'registry', [
    join(bin, 'registry'),
    'serve',
    join(dir, 'registry.yml'),
  ]);
  const mirror = { port, hostsDir: join(dir, 'certs.d') };
  mirrorHosts(mirror, [...ALWAYS_MIRRORED, ...hosts]);
  await until(
    'the image registry',
    30,
    async () => ((await fetch(`http://127.0.0.1:${port}/v2/`)).ok ? true : undefined),
    () => exitedLine(registry),
  );
  return mirror;
}

/**
 * Each push of a changed image leaves its previous manifest untagged, with layers nothing else uses: collected
 * before the registry serves, as its `garbage-collect` requires (one real node per machine uses this storage).
 */
function collectGarbage(
  registry: string,
  config: string,
  storage: string,
  log: (line: string) => void,
): void {
  if (!existsSync(join(storage, 'docker/registry/v2/repositories'))) return; // nothing pushed yet
  const kib = () => Number(execFileSync('du', ['-sk', storage], { encoding: 'utf8' }).split('\t')[0]);
  const before = kib();
  try {
    execFileSync(registry, ['garbage-collect', '--delete-untagged', config], { stdio: 'ignore' });
  } catch (err) {
    log(`registry: garbage-collect failed (${(err as Error).message.split('\n')[0]}); storage kept as it is`);
    return;
  }
  const after = kib();
  if (after < before)
    log(
      `registry: garbage-collect freed ${((before - after) / 1024).toFixed(0)} MiB, ${(after / 1024).toFixed(0)} MiB kept`,
    );
}

/** Writes the hosts.toml of each host that has none (containerd reads them at each pull). */
export function mirrorHosts(mirror: ImageMirror, hosts: string[]): void {
  for (const host of new Set(hosts)) {
    if (existsSync(join(mirror.hostsDir, host, 'hosts.toml'))) continue;
    mkdirSync(join(mirror.hostsDir, host), { recursive: true });
    writeFileSync(join(mirror.hostsDir, host, 'hosts.toml'), hostsToml(mirror.port, host));
  }
}

/** The archive each name was last pushed from, kept beside the registry's storage. */
const pushedFile = () => join(cacheRoot(), 'node', 'registry-pushed.json');

async function inMirror(port: number, ref: string): Promise<boolean> {
  const name = qualified(ref);
  const at = name.lastIndexOf(':');
  const res = await fetch(
    `http://127.0.0.1:${port}/v2/${name.slice(0, at)}/manifests/${name.slice(at + 1)}`,
    {
      method: 'HEAD',
      headers: {
        accept:
          'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json',
      },
    },
  );
  return res.ok;
}

/**
 * Pushes each image whose archive is not the one last pushed under its name (or that the registry lacks);
 * returns the names pushed.
 */
export async function pushImages(
  mirror: ImageMirror,
  images: BuiltImage[],
  log: (line: string) => void,
): Promise<string[]> {
  ensureInstalled(['skopeo'], log);
  const pushed = existsSync(pushedFile())
    ? (JSON.parse(readFileSync(pushedFile(), 'utf8')) as Record<string, string>)
    : {};
  const done: string[] = [];
  const started = Date.now();
  for (const image of images) {
    if (pushed[image.ref] === image.archive && (await inMirror(mirror.port, image.ref))) continue;
    execFileSync(
      'skopeo',
      [
        'copy',
        '--quiet',
        '--dest-tls-verify=false',
        `${image.transport}:${image.archive}`,
        `docker://${mirroredName(mirror.port, image.ref)}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    pushed[image.ref] = image.archive;
    writeFileSync(pushedFile(), `${JSON.stringify(pushed, null, 2)}\n`);
    done.push(image.ref);
  }
  if (done.length)
    log(
      `pushed to the node's registry in ${((Date.now() - started) / 1000).toFixed(1)} s: ${done.join(', ')}`,
    );
  return done;
}
