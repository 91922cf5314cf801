import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { sleep } from './process-control.js';

export interface StandIns {
  env: Record<string, string>;
  /** Process id of the stand-in host (for its CPU time). */
  pid: number;
  /** Origins of the loopback stand-ins that answer the read-only counter. */
  origins: string[];
  /**
   * Total requests the stand-ins have recorded so far (all of them, every method and path); undefined when no
   * stand-in answers the read-only counter (an upstream fake that is not a StandInServer).
   */
  count(): Promise<number | undefined>;
  close(): Promise<void>;
}

const COUNTER = '/__stand-in/count';

async function readCounter(origin: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${origin}${COUNTER}`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { count?: unknown };
    return typeof body.count === 'number' ? body.count : undefined;
  } catch {
    return undefined;
  }
}

/** Loopback origins among the env values (`http://127.0.0.1:<port>/...`). */
export function loopbackOrigins(env: Record<string, string>): string[] {
  const origins = new Set<string>();
  for (const value of Object.values(env)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      ['127.0.0.1', 'localhost'].includes(url.hostname)
    )
      origins.add(url.origin);
  }
  return [...origins].sort();
}

/** Starts an app's stand-ins (bundled stand-in host) in a child process and reads the env it prints. */
export async function startStandIns(hostScript: string, timeoutMs = 15_000): Promise<StandIns> {
  const child: ChildProcess = spawn(process.execPath, [hostScript], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stand-ins ${hostScript} did not start`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`stand-ins ${hostScript} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { env: Record<string, string> }).env);
      } catch {
        reject(new Error(`stand-ins ${hostScript} printed ${line.slice(0, 200)}`));
      }
    });
  });
  child.removeAllListeners('exit');
  const candidates = loopbackOrigins(env);
  const origins: string[] = [];
  for (const origin of candidates) if ((await readCounter(origin)) !== undefined) origins.push(origin);
  return {
    env,
    pid: child.pid ?? -1,
    origins,
    count: async () => {
      if (origins.length === 0) return undefined;
      let total = 0;
      for (const origin of origins) {
        const n = await readCounter(origin);
        if (n === undefined) throw new Error(`stand-in counter ${origin}${COUNTER} did not answer`);
        total += n;
      }
      return total;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      child.stdin?.end();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await Promise.race([exited, sleep(3000).then(() => child.kill('SIGKILL'))]);
    },
  };
}
