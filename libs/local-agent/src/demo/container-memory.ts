import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A sidecar run as its pod runs it: under the container's memory limit. Node reads that limit from the
 * process's memory cgroup and sizes V8's heap from it (old space max(limit / 2, 256 MB), semi-spaces 1 MB up to
 * a 512 MiB limit, 16 MB at 1 GiB); a V8 flag on the command line overrides the old space only. On a machine
 * without such a limit V8 sizes itself from the host's memory (here 4 GB and 64 MB semi-spaces), so a process launched plainly
 * keeps far more garbage than it would in its pod, and a memory test of it measures the wrong thing.
 */
export interface ContainerLaunch {
  command: string;
  args: string[];
  /** How the limit is applied, for reports: `cgroup v1 256 MiB`, `emulated 256 MiB (…flags)` or `none`. */
  model: string;
  /** Removes the cgroup made for the process (call once it has exited). */
  release(): void;
}

const MIB = 1024 * 1024;
const QUANTITY_BYTES = { Mi: MIB, Gi: 1024 * MIB, M: 1e6, G: 1e9 } as const;
let made = 0;

/** A Kubernetes memory quantity as a manifest writes it (`320Mi`, `1Gi`, `500M`, `1G`) in whole MiB, else undefined. */
export function memoryQuantityMiB(quantity: unknown): number | undefined {
  const m = /^(\d+)(Mi|Gi|M|G)$/.exec(String(quantity ?? ''));
  return m
    ? Math.floor((Number(m[1]) * QUANTITY_BYTES[m[2] as keyof typeof QUANTITY_BYTES]) / MIB)
    : undefined;
}

/** V8 flags that size the heap as Node does under a `limitMiB` cgroup (the pod's sizing, not its start-up time). */
export function heapFlagsForLimit(limitMiB: number, nodeArgs: readonly string[] = []): string[] {
  const fromLimit = Math.min(Math.max(Math.floor(limitMiB / 2), 256), 2048);
  // Node 24's V8: a semi-space of old space / 256 up to 256 MB of old space, old space / 32 above, rounded up
  // to a power of two (Node 20's V8 divided by 128 and stopped at 16 MB).
  const semi = fromLimit <= 256 ? 1 : 2 ** Math.ceil(Math.log2(fromLimit / 32));
  const has = (flag: string) => nodeArgs.some((a) => a.startsWith(`${flag}=`));
  return [
    ...(has('--max-old-space-size') ? [] : [`--max-old-space-size=${fromLimit}`]),
    ...(has('--max-semi-space-size') ? [] : [`--max-semi-space-size=${semi}`]),
  ];
}

/** A new memory cgroup limited to `limitMiB` under this process's own, or undefined where none can be made. */
function makeCgroup(limitMiB: number): { dir: string; version: 1 | 2 } | undefined {
  if (process.platform !== 'linux') return undefined;
  let lines: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const name = `executor-plugins-${process.pid}-${++made}`;
  const v1 = lines.map((l) => /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/.exec(l)).find(Boolean);
  const v2 = lines.map((l) => /^0::(.*)$/.exec(l)).find(Boolean);
  const attempts: Array<{ dir: string; version: 1 | 2; file: string }> = [];
  if (v1)
    attempts.push({
      dir: join('/sys/fs/cgroup/memory', v1[1], name),
      version: 1,
      file: 'memory.limit_in_bytes',
    });
  if (v2 && existsSync(join('/sys/fs/cgroup', v2[1], 'cgroup.subtree_control')))
    attempts.push({ dir: join('/sys/fs/cgroup', v2[1], name), version: 2, file: 'memory.max' });
  for (const { dir, version, file } of attempts) {
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    try {
      writeFileSync(join(dir, file), String(limitMiB * MIB));
      return { dir, version };
    } catch {
      rmdirSync(dir);
    }
  }
  return undefined;
}

/**
 * How to launch `node [nodeArgs] entry` under a container memory limit: in a cgroup of that limit where this
 * machine allows one (root; the kernel then enforces the limit as the kubelet's would), else with the V8 flags
 * that give the same heap sizing (`emulate: false`: a plain launch instead, for timings that flags would
 * distort). No limit: a plain launch. CONTAINER_MEMORY=emulate skips the cgroup.
 */
export function launchUnderLimit(
  entry: string,
  nodeArgs: readonly string[],
  limitMiB: number | undefined,
  options: { node?: string; emulate?: boolean } = {},
): ContainerLaunch {
  const node = options.node ?? process.execPath;
  const plain = { command: node, args: [...nodeArgs, entry], release: () => undefined };
  if (limitMiB === undefined) return { ...plain, model: 'none' };
  const skipped = process.env.CONTAINER_MEMORY === 'emulate';
  const cgroup = skipped ? undefined : makeCgroup(limitMiB);
  if (!cgroup && options.emulate === false) {
    const why = skipped ? 'CONTAINER_MEMORY=emulate' : 'no memory cgroup can be made here';
    return { ...plain, model: `none (${why}; V8 sizes its heap from the host)` };
  }
  if (!cgroup) {
    const flags = heapFlagsForLimit(limitMiB, nodeArgs);
    return {
      ...plain,
      args: [...flags, ...nodeArgs, entry],
      model: `emulated ${limitMiB} MiB (${flags.join(' ') || 'the command line sizes the heap'})`,
    };
  }
  return {
    // The shell joins the cgroup and then becomes node, so the process starts inside it and keeps the pid.
    command: '/bin/sh',
    args: ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup.dir, node, ...nodeArgs, entry],
    model: `cgroup v${cgroup.version} ${limitMiB} MiB`,
    release: () => {
      try {
        rmdirSync(cgroup.dir);
      } catch {
        // still in use (a process that outlived its stop) or already gone
      }
    },
  };
}
