import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { launchUnderLimit } from './container-memory.js';

export interface PluginProcess {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** How the container's memory limit is applied (`cgroup v1 256 MiB`, `emulated …`, `none`). */
  memoryModel: string;
  /** Parsed JSON log lines so far. */
  logs: Array<Record<string, unknown>>;
  /** Raw stdout + stderr text so far. */
  output(): string;
  /** SIGTERM, wait for the exit; resolves with the exit code (null if killed by a signal). */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts a built plugin (`node dist/apps/<app>/main.js`) on a free port and waits for its `listening` log
 * line. Rejects with the process output if it exits first or does not listen within `timeoutMs`.
 */
export function startPluginProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  options: { timeoutMs?: number; nodeArgs?: string[]; cwd?: string; memoryLimitMiB?: number } = {},
): Promise<PluginProcess> {
  const launch = launchUnderLimit(entry, options.nodeArgs ?? [], options.memoryLimitMiB);
  const child = spawn(launch.command, launch.args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.once('close', () => launch.release()); // 'close': the 'exit' listeners are replaced below
  const logs: Array<Record<string, unknown>> = [];
  let text = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => (text += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${options.timeoutMs ?? 15_000} ms:\n${text}`));
    }, options.timeoutMs ?? 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before listening:\n${text}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      text += `${line}\n`;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      logs.push(entry);
      if (entry.msg !== 'listening') return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const port = Number(entry.port);
      resolve({
        name,
        port,
        memoryModel: launch.model,
        url: `http://127.0.0.1:${port}`,
        child,
        logs,
        output: () => text,
        stop: (stopTimeout = 25_000) =>
          new Promise((done) => {
            // Already gone (an exit, or a signal such as the OOM abort): no exit event will come.
            if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
            const kill = setTimeout(() => child.kill('SIGKILL'), stopTimeout);
            child.once('exit', (code) => {
              clearTimeout(kill);
              done(code);
            });
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
