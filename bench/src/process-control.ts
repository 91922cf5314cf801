import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { launchUnderLimit } from '@app/local-agent/demo/container-memory.js';

/** A port that was free a moment ago (bound to 127.0.0.1:0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface MemoryStatus {
  /** Resident set size now (KiB). */
  rssKiB: number;
  /** Peak resident set size since the process started (KiB). */
  hwmKiB: number;
}

/** VmRSS and VmHWM of a process from /proc (Linux); undefined elsewhere or once the process is gone. */
export function memoryStatus(pid: number): MemoryStatus | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const field = (name: string): number | undefined => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
    return match ? Number(match[1]) : undefined;
  };
  const rssKiB = field('VmRSS');
  const hwmKiB = field('VmHWM');
  return rssKiB === undefined || hwmKiB === undefined ? undefined : { rssKiB, hwmKiB };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 10 ms resolution). */
export function cpuTimeMs(pid: number): number | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may contain spaces) start at the state, field 3; utime and stime are 14 and 15.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  /** performance.now() just before spawn(). */
  spawnedAt: number;
  /** How the container's memory limit is applied (`cgroup v1 320 MiB`, `none …`). */
  memoryModel: string;
  logFile: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves on exit. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns `node [nodeArgs] entry` with exactly `env` (plus PATH), stdout and stderr appended to `logFile`:
 * a sidecar's log goes to a file through the container runtime, not to a reader in the same machine's
 * benchmark process.
 */
export function spawnNode(
  entry: string,
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
  node = process.execPath,
  memoryLimitMiB?: number,
): Spawned {
  const fd = openSync(logFile, 'a');
  // Under the container's memory limit where a cgroup can be made; never emulated with V8 flags, which would
  // slow the start being measured.
  const launch = launchUnderLimit(entry, nodeArgs, memoryLimitMiB, { node, emulate: false });
  const spawnedAt = performance.now();
  const child = spawn(launch.command, launch.args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  }).then(() => launch.release());
  return {
    child,
    pid: child.pid ?? -1,
    spawnedAt,
    memoryModel: launch.model,
    logFile,
    stop: async (graceMs = 3000) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** JSON log lines of a log file (other lines skipped). */
export function logLines(logFile: string): Array<Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  const lines: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not a log line
    }
  }
  return lines;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
