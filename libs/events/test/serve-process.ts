// `npm run events -- serve` as a process (node tools/run-cli.mjs events serve ...), for the CLI and memory tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../../..');

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (kept, never echoed: tests stay quiet). */
  output(): string;
  /** VmRSS and VmHWM (the peak) of the process, in MiB. */
  memory(): { rssMiB: number; peakMiB: number };
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function startServeProcess(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['tools/run-cli.mjs', 'events', 'serve', '--port', '0', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // One decoder per stream: a character split between two reads stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (c: string) => (output += c));
  child.stderr.on('data', (c: string) => (output += c));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line:\n${output}`)), 30_000);
    child.once('exit', () => reject(new Error(`exited before it served:\n${output}`)));
    child.stdout.on('data', () => {
      const m = /event endpoint on (http:\/\/[\d.:]+)\/api\/v1\/events/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
  });
  return {
    url,
    child,
    output: () => output,
    memory() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
      return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
    },
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done(child.exitCode);
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}
