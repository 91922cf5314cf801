// Builds the real Argo and Kubernetes binaries from the Go modules pinned in tools/argo-stack/go/ into a cache
// outside the repository, once per pinned version set: a second `up` finds them and starts in seconds.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  type ModuleRelease,
  VERSIONED_MODULE,
  pinnedVersion,
  tagCommit,
  versionLdflags,
} from './versions.js';

export interface BinarySet {
  /** Go module folder (in the repository) the set is built from. */
  module: string;
  /** Packages to build: `go build -o <dir>/ <packages>`. */
  packages: string[];
}

export const BINARIES = {
  argo: ['workflow-controller', 'argoexec', 'argo'],
  kube: [
    'kube-apiserver',
    'kube-controller-manager',
    'kubectl',
    'etcd',
    'certs',
    // The real node's (up --node real).
    'kubelet',
    'kube-scheduler',
    'kube-proxy',
  ],
  // Not part of the stack: the suites that lint and render the Helm chart build it (ensureBinarySet).
  helm: ['helm'],
  // The real node's cluster DNS (in its image) and image mirror, built by `up --node real`.
  coredns: ['coredns'],
  registry: ['registry'],
} as const;

/** The sets only a real node needs: `build` builds them with `--node real`. */
export const REAL_NODE_SETS: ReadonlyArray<keyof typeof BINARIES> = ['coredns', 'registry'];

const ARGO_MODULE = VERSIONED_MODULE.argo;

export function cacheRoot(): string {
  const base =
    process.env.ARGO_STACK_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'executor-plugins', 'argo-stack');
  mkdirSync(base, { recursive: true });
  return base;
}

function goFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...goFiles(path));
    else if (/\.(go|mod|sum)$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/**
 * The folder the binaries of a module land in: named after a hash of every Go file, go.mod and go.sum in it and
 * of the link flags, so a change of either builds the set anew.
 */
export function binDir(root: string, set: keyof typeof BINARIES, ldflags: string): string {
  const module = join(root, 'tools/argo-stack/go', set);
  const hash = createHash('sha256');
  for (const file of goFiles(module)) hash.update(file.slice(module.length)).update(readFileSync(file));
  hash.update(`\0ldflags\0${ldflags}`);
  return join(cacheRoot(), 'bin', `${set}-${hash.digest('hex').slice(0, 12)}`);
}

/** Runs a build command; when it fails, `log` gets the last 4000 characters of its output. */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  log: (line: string) => void,
  env: Record<string, string> = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GOFLAGS: '-buildvcs=false', ...env },
    });
    let tail = '';
    const keep = (chunk: string) => {
      tail = (tail + chunk).slice(-4000);
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => reject(new Error(`${cmd}: ${err.message} (is Go 1.26 installed?)`)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else {
        log(tail.trim());
        reject(new Error(`${cmd} ${args.slice(0, 2).join(' ')} … failed (exit ${code})`));
      }
    });
  });
}

async function goOutput(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`go ${args.join(' ')}: exit ${code}`)),
    );
  });
}

/**
 * The Argo module as the proxy serves it does not build two of its commands, so the build uses a copy of it
 * (outside the repository, beside the binaries) with two files the upstream repository has and the module
 * zip cannot carry:
 * - `workflow/executor/osspecific/signal_linux.go` is a symlink to `signal_darwin.go` upstream; module zips
 *   drop symlinks, so argoexec misses `Setpgid` on Linux. The copy restores the symlink.
 * - `ui/embed.go` embeds `ui/dist/app`, which the UI's own toolchain builds and the module does not contain;
 *   `argo` (the CLI and `argo server`) imports it. The copy gets a one-page placeholder: the stack uses the
 *   server's API and event endpoint, not its UI.
 * `go build -modfile` points the pinned module at the copy with one `replace`; every version stays as go.sum
 * pins it.
 */
async function argoModfile(root: string, work: string): Promise<string> {
  const module = join(root, 'tools/argo-stack/go/argo');
  const goMod = readFileSync(join(module, 'go.mod'), 'utf8');
  const { dir, release } = await downloadPinned(module, ARGO_MODULE);
  const version = release.version;
  mkdirSync(work, { recursive: true });
  const copy = join(work, `argo-src-${version}`);
  if (!existsSync(join(copy, '.complete'))) {
    rmSync(copy, { recursive: true, force: true });
    cpSync(dir, copy, { recursive: true });
    chmodRecursive(copy);
    symlinkSync('signal_darwin.go', join(copy, 'workflow/executor/osspecific/signal_linux.go'));
    mkdirSync(join(copy, 'ui/dist/app'), { recursive: true });
    writeFileSync(
      join(copy, 'ui/dist/app/index.html'),
      '<!doctype html><title>Argo Server</title><p>The UI is not part of the Go module; this server runs for its API.\n',
    );
    writeFileSync(join(copy, '.complete'), version);
  }
  const modfile = join(work, 'argo.mod');
  writeFileSync(modfile, `${goMod}\nreplace ${ARGO_MODULE} => ${copy}\n`);
  cpSync(join(module, 'go.sum'), join(work, 'argo.sum'));
  return modfile;
}

interface Downloaded {
  Dir?: string;
  Info?: string;
  Origin?: { Hash?: string };
}

/** Downloads the version of a module that the go.mod of a folder pins; returns its folder and release. */
async function downloadPinned(
  module: string,
  path: string,
): Promise<{ dir: string; release: ModuleRelease }> {
  const file = join(module, 'go.mod');
  const version = pinnedVersion(readFileSync(file, 'utf8'), path, file);
  const out = JSON.parse(
    await goOutput(['mod', 'download', '-json', `${path}@${version}`], module),
  ) as Downloaded;
  if (!out.Dir || !out.Info) throw new Error(`go mod download ${path}@${version} gave no folder`);
  const info = JSON.parse(readFileSync(out.Info, 'utf8')) as { Time?: string; Origin?: { Hash?: string } };
  const commit = tagCommit(path, version, out.Origin?.Hash ?? info.Origin?.Hash);
  return { dir: out.Dir, release: { version, time: info.Time ?? '', ...(commit ? { commit } : {}) } };
}

/** `-ldflags` of a set: no symbol tables, and the version variables its upstream release build sets. */
async function ldflagsOf(root: string, set: keyof typeof BINARIES): Promise<string> {
  const { release } = await downloadPinned(join(root, 'tools/argo-stack/go', set), VERSIONED_MODULE[set]);
  return ['-s -w', ...versionLdflags(set, release)].join(' ');
}

function chmodRecursive(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) chmodRecursive(path);
    else if (entry.isFile()) chmodSync(path, 0o644);
  }
}

const PACKAGES: Record<keyof typeof BINARIES, string[]> = {
  argo: BINARIES.argo.map((c) => `${ARGO_MODULE}/cmd/${c}`),
  kube: [
    'k8s.io/kubernetes/cmd/kube-apiserver',
    'k8s.io/kubernetes/cmd/kube-controller-manager',
    'k8s.io/kubernetes/cmd/kubectl',
    './etcd',
    './certs',
    'k8s.io/kubernetes/cmd/kubelet',
    'k8s.io/kubernetes/cmd/kube-scheduler',
    'k8s.io/kubernetes/cmd/kube-proxy',
  ],
  helm: ['helm.sh/helm/v4/cmd/helm'],
  coredns: ['./coredns'],
  registry: ['./registry'],
};

/** CoreDNS as its Makefile builds it: static (CGO_ENABLED=0), for an image with no libc. */
const BUILD_ENV: Partial<Record<keyof typeof BINARIES, Record<string, string>>> = {
  coredns: { CGO_ENABLED: '0' },
};

/** Builds what is missing of the stack's sets; returns the folder of each. */
export async function ensureBinaries(
  root: string,
  log: (line: string) => void,
): Promise<Record<'argo' | 'kube', string>> {
  return { kube: await ensureBinarySet(root, 'kube', log), argo: await ensureBinarySet(root, 'argo', log) };
}

/** Builds one set if it is missing (logging a line with its time); returns its folder. */
export async function ensureBinarySet(
  root: string,
  set: keyof typeof BINARIES,
  log: (line: string) => void,
): Promise<string> {
  const ldflags = await ldflagsOf(root, set);
  const dir = binDir(root, set, ldflags);
  const built = () => BINARIES[set].every((b) => existsSync(join(dir, b)));
  if (built()) return dir;
  return withBuildLock(dir, log, async () => {
    if (!built()) await buildSet(root, set, ldflags, dir, log);
    return dir;
  });
}

/**
 * Runs `fn` holding `<dir>.lock` (a folder, created atomically, holding the owner's pid): two `up`s or suites
 * started at once would otherwise build into the same `.tmp` folder and fail on its rename. A lock whose owner
 * is gone is taken over.
 */
export async function withBuildLock<T>(
  dir: string,
  log: (line: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const lock = `${dir}.lock`;
  mkdirSync(dirname(lock), { recursive: true }); // a fresh machine has no cache folder yet
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (lockOwnerGone(lock)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) log(`waiting for another build of ${dir} (${lock})`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockOwnerGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return false; // just created: its owner writes the pid next
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function buildSet(
  root: string,
  set: keyof typeof BINARIES,
  ldflags: string,
  dir: string,
  log: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  log(
    `building ${BINARIES[set].join(', ')} (the first build of both sets takes about 12 minutes on 2 cores, up to an hour on a busy machine; later ones are cached)`,
  );
  const out = `${dir}.tmp`;
  rmSync(out, { recursive: true, force: true });
  const module = join(root, 'tools/argo-stack/go', set);
  const extra = set === 'argo' ? [`-modfile=${await argoModfile(root, join(cacheRoot(), 'src'))}`] : [];
  await run(
    'go',
    ['build', ...extra, `-ldflags=${ldflags}`, '-o', `${out}/`, ...PACKAGES[set]],
    module,
    log,
    BUILD_ENV[set],
  );
  rmSync(dir, { recursive: true, force: true });
  renameSync(out, dir);
  log(`built ${set} binaries in ${Math.round((Date.now() - started) / 1000)} s`);
}
