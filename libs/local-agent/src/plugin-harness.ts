import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecuteTemplateReply } from '@app/contract';
import {
  startCollection,
  startPlugin,
  type CollectionDefinition,
  type PluginDefinition,
  type RunningCollection,
  type RunningPlugin,
  type StartOptions,
} from '@app/plugin-kit';

export interface HarnessOptions extends Omit<StartOptions, 'env' | 'logDestination'> {
  /** Environment of the sidecar (TOKEN_FILE, PORT and LOG_LEVEL are filled in). */
  env?: Record<string, string | undefined>;
  token?: string;
}

export interface HarnessExtras {
  token: string;
  tokenFile: string;
  /** Every log line, parsed. */
  logs: Array<Record<string, unknown>>;
  /** Raw log text, for secret searches. */
  logText(): string;
  /** POST /api/v1/template.execute with the right token (a string body is sent as is). */
  execute(body: unknown): Promise<{ status: number; body: ExecuteTemplateReply; text: string }>;
  /** Rewrites the token file (rotation). */
  rotateToken(next: string): void;
  close(): Promise<void>;
}

export type PluginHarness = RunningPlugin & HarnessExtras;
export type CollectionHarness = RunningCollection & HarnessExtras;

let counter = 0;

/** Runs a plugin in this process on a free port, with a temporary token file and captured logs. */
export function startHarness<E extends object>(
  definition: PluginDefinition<E>,
  options: HarnessOptions = {},
): Promise<PluginHarness> {
  return harness((opts) => startPlugin(definition, opts), options);
}

/** Runs a collection sidecar in this process, like startHarness. */
export function startCollectionHarness(
  definition: CollectionDefinition,
  options: HarnessOptions = {},
): Promise<CollectionHarness> {
  return harness((opts) => startCollection(definition, opts), options);
}

/** startHarness or startCollectionHarness, whichever the definition is. */
export function startAnyHarness(
  definition: PluginDefinition<object> | CollectionDefinition,
  options: HarnessOptions = {},
): Promise<HarnessExtras & { url: string; shutdown(reason?: string): Promise<void> }> {
  return 'plugins' in definition
    ? startCollectionHarness(definition, options)
    : startHarness(definition, options);
}

async function harness<R extends { url: string; shutdown(reason?: string): Promise<void> }>(
  start: (options: StartOptions) => Promise<R>,
  options: HarnessOptions,
): Promise<R & HarnessExtras> {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-harness-'));
  const tokenFile = join(dir, 'token');
  let token = options.token ?? `harness-token-${process.pid}-${++counter}-bcdfghjklmnpqrst`;
  writeFileSync(tokenFile, token);
  const lines: string[] = [];
  const running = await start({
    ...options,
    env: { LOG_LEVEL: 'debug', ...options.env, TOKEN_FILE: tokenFile, PORT: '0', HOST: '127.0.0.1' },
    logDestination: { write: (line: string) => lines.push(line) },
  });
  const harness: R & HarnessExtras = {
    ...running,
    get token() {
      return token;
    },
    tokenFile,
    get logs() {
      return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    logText: () => lines.join(''),
    async execute(body) {
      const res = await fetch(`${running.url}/api/v1/template.execute`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: ExecuteTemplateReply = {};
      try {
        parsed = JSON.parse(text) as ExecuteTemplateReply;
      } catch {
        // non-JSON replies (4xx text) stay in `text`
      }
      return { status: res.status, body: parsed, text };
    },
    rotateToken(next) {
      token = next;
      writeFileSync(tokenFile, next);
    },
    async close() {
      await running.shutdown('test');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
