import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecuteTemplateReply } from '@app/contract';
import { startPlugin, type RunningPlugin } from '@app/plugin-kit';
import {
  executeArgs,
  startHarness,
  type ExecuteArgsOptions,
  type PluginHarness,
  type StandInServer,
} from '@app/local-agent';
import { dataJobPlugin } from '../src/data-job.plugin.js';

/** Credentials of the stand-ins; long enough for the kit's redactor, and searched for in logs and replies. */
export const SECRETS = {
  databricks: 'dapi-e2e-0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  airflowPassword: 'airflow-e2e-pw-5b4c3d2e1f0a',
  airflowToken: 'airflow-e2e-static-token-77aa88bb',
  dbtCloud: 'dbtc_e2e_9Zq8Yx7Ww6Vv5Uu4Tt3Ss2',
  livyPassword: 'livy-e2e-pw-1a2b3c4d5e6f',
  awsSecretKey: 'aws-e2e-secret/Kx7Mdeng9bPxRfiCYzz0aa11bb22',
} as const;

/** Sidecar settings for tests: short upstream timeout (hang faults), short call deadline. */
export const TEST_KIT_ENV = { UPSTREAM_TIMEOUT: '400ms', CALL_DEADLINE: '5s' };

export function dataJob(body: Record<string, unknown>, options: ExecuteArgsOptions = {}) {
  return executeArgs({ 'data-job': body }, options);
}

export function startDataJob(env: Record<string, string>): Promise<PluginHarness> {
  return startHarness(dataJobPlugin, { env: { ...TEST_KIT_ENV, ...env } });
}

/** A stand-in as the tests drive it. */
export interface Upstream {
  readonly url: string;
  readonly server: StandInServer;
  start(): Promise<unknown>;
  close(): Promise<unknown>;
}

/**
 * The describe block's sidecar, pointed at its stand-ins: they start (then `seed` runs) and the sidecar
 * starts before the tests, all close after them, and injected faults are cleared before each test. The
 * harness is returned at once and usable from the first test on.
 */
export function sharedSidecar(
  standIns: Upstream[],
  env: () => Record<string, string>,
  seed?: () => void,
): PluginHarness {
  let h: PluginHarness | undefined;
  beforeAll(async () => {
    await Promise.all(standIns.map((s) => s.start()));
    seed?.();
    h = await startDataJob(env());
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all(standIns.map((s) => s.close()));
  });
  beforeEach(() => standIns.forEach((s) => s.server.faults.clear()));
  return new Proxy({} as PluginHarness, {
    get(_target, property) {
      if (!h) throw new Error('the shared sidecar starts in beforeAll');
      const value: unknown = Reflect.get(h, property);
      return typeof value === 'function' ? value.bind(h) : value;
    },
  });
}

/** A sidecar of its own for one test (a restart: empty memory; other credentials), closed afterwards. */
export async function withSidecar<T>(env: Record<string, string>, use: (h: PluginHarness) => Promise<T>) {
  const h = await startDataJob(env);
  try {
    return await use(h);
  } finally {
    await h.close();
  }
}

/** A stand-in of its own for one test, started and closed around `use`. */
export async function withStandIn<U extends Upstream, T>(standIn: U, use: (standIn: U) => Promise<T>) {
  await standIn.start();
  try {
    return await use(standIn);
  } finally {
    await standIn.close();
  }
}

export function outputs(reply: ExecuteTemplateReply): Record<string, string> {
  return Object.fromEntries((reply.node?.outputs?.parameters ?? []).map((p) => [p.name, p.value]));
}

export interface Polled {
  replies: ExecuteTemplateReply[];
  final: ExecuteTemplateReply;
  /** Upstream requests made by each call. */
  requestsPerCall: number[];
}

/** Calls the plugin like the agent does on every requeue until the node is final. */
export async function pollToEnd(
  h: PluginHarness,
  request: unknown,
  upstream: StandInServer,
  maxCalls = 30,
): Promise<Polled> {
  const replies: ExecuteTemplateReply[] = [];
  const requestsPerCall: number[] = [];
  for (let i = 0; i < maxCalls; i++) {
    const before = upstream.calls.length;
    const { status, body } = await h.execute(request);
    expect(status).toBe(200);
    replies.push(body);
    requestsPerCall.push(upstream.calls.length - before);
    const phase = body.node?.phase;
    if (phase !== 'Running' && phase !== 'Pending') return { replies, final: body, requestsPerCall };
  }
  throw new Error(`still running after ${maxCalls} calls: ${JSON.stringify(replies[replies.length - 1])}`);
}

/** No secret value in any log line or reply. */
export function expectNoSecrets(h: PluginHarness, replies: unknown[], secrets: readonly string[]): void {
  const text = h.logText() + JSON.stringify(replies);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A workflow uid per test, so execution keys never collide between tests. */
let uidCounter = 0;
export function uniqueWorkflow(name = 'wf-e2e'): { name: string; uid: string } {
  uidCounter++;
  return {
    name: `${name}-${uidCounter}`,
    uid: `0b7c9a8e-3d1f-4c55-9a0e-${String(Date.now() % 1e6).padStart(6, '0')}${String(uidCounter).padStart(6, '0')}`,
  };
}

/** A sidecar that can be restarted on the same port with an empty memory (as when its container restarts). */
export interface RestartableSidecar {
  readonly url: string;
  readonly token: string;
  /** Log lines of every incarnation. */
  readonly logText: () => string;
  restarts: number;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startRestartableSidecar(env: Record<string, string>): Promise<RestartableSidecar> {
  const dir = mkdtempSync(join(tmpdir(), 'data-job-sidecar-'));
  const tokenFile = join(dir, 'token');
  const token = `agent-token-${process.pid}-bcdfghjklmnpqrstvwxz`;
  writeFileSync(tokenFile, token);
  const lines: string[] = [];
  const start = (port: string): Promise<RunningPlugin> =>
    startPlugin(dataJobPlugin, {
      env: {
        LOG_LEVEL: 'debug',
        ...TEST_KIT_ENV,
        ...env,
        TOKEN_FILE: tokenFile,
        PORT: port,
        HOST: '127.0.0.1',
      },
      logDestination: { write: (line: string) => lines.push(line) },
    });
  let current = await start('0');
  const port = String(current.port);
  const sidecar: RestartableSidecar = {
    url: current.url,
    token,
    logText: () => lines.join(''),
    restarts: 0,
    async restart() {
      await current.shutdown('restart');
      current = await start(port);
      sidecar.restarts++;
    },
    async close() {
      await current.shutdown('test');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return sidecar;
}
