// A replica of the built agent (dist/apps/shared-agent) as a process of its own, as a pod is: its JSON log
// lines kept, its health port read from its start line.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { until } from './agent-harness.js';

const root = resolve(import.meta.dirname, '../../../..');
const main = join(root, 'dist/apps/shared-agent/main.js');

/** Builds the agent once if dist/ has none (npm test builds it first). */
export function ensureBuilt(): void {
  if (!existsSync(main)) execFileSync(process.execPath, [join(root, 'tools/build.mjs'), 'shared-agent']);
}

export class ReplicaProcess {
  readonly lines: string[] = [];
  readonly child: ChildProcess;
  private rest = '';

  constructor(
    readonly identity: string,
    env: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH,
        AGENT_IDENTITY: identity,
        AGENT_PORT: '0',
        AGENT_HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      const parts = (this.rest + chunk).split('\n');
      this.rest = parts.pop()!;
      this.lines.push(...parts.filter(Boolean));
    });
  }

  logs(): Array<Record<string, unknown>> {
    return this.lines.flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  /** The health port, once the replica has started. */
  async port(): Promise<number> {
    const started = await until(
      `${this.identity} started`,
      () => this.logs().find((l) => l.msg === 'shared agent started'),
      20_000,
    );
    return started.port as number;
  }

  /** GET on the health port within `timeoutMs`: the status, or the error's name (a timeout, a refusal). */
  async get(path: string, timeoutMs = 1000): Promise<number | string> {
    const port = await this.port();
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
      await res.text();
      return res.status;
    } catch (err) {
      return (err as Error).name;
    }
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.child.kill(signal);
  }
}
