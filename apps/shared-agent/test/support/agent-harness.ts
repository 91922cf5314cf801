import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CollectionDefinition } from '@app/plugin-kit';
import { probePlugin } from '../../../../libs/plugin-kit/test/fixtures/probe-plugin.js';
import { startSharedAgent, type RunningSharedAgent } from '../../src/shared-agent.js';
import type { FakeApi } from './fake-api.js';

/** The in-process plugins of these tests: the kit's probe plugin. */
export const probeCollection: CollectionDefinition = { name: 'collection', port: 0, plugins: [probePlugin] };

export interface AgentHarness {
  agent: RunningSharedAgent;
  dir: string;
  lines: string[];
  logs(): Array<Record<string, unknown>>;
  /** GET on the health port. */
  get(path: string): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

/** Files an external plugin's token where the agent reads it: `<dir>/tokens/<name>/token`. */
export function writeToken(dir: string, name: string, token: string): void {
  mkdirSync(join(dir, 'tokens', name), { recursive: true });
  writeFileSync(join(dir, 'tokens', name, 'token'), token);
}

/** A shared agent in this process against the fake API, with fast clocks (patch 200 ms, Leases 2 s). */
export async function startAgent(
  api: FakeApi,
  env: Record<string, string> = {},
  options: { dir?: string; identity?: string; plugins?: CollectionDefinition } = {},
): Promise<AgentHarness> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'shared-agent-'));
  writeFileSync(join(dir, 'kubeconfig'), api.kubeconfig());
  const lines: string[] = [];
  const agent = await startSharedAgent({
    env: {
      KUBECONFIG: join(dir, 'kubeconfig'),
      AGENT_PORT: '0',
      AGENT_HOST: '127.0.0.1',
      AGENT_IDENTITY: options.identity ?? 'replica-a',
      ARGO_AGENT_PATCH_RATE: '200ms',
      AGENT_LEASE_DURATION: '2s',
      AGENT_SHARDS: '4',
      AGENT_SHUTDOWN_TIMEOUT: '5s',
      // This API server has no controller to take the results written: a stop would wait for it in vain.
      AGENT_HANDOVER_RESULT_WAIT: '0s',
      AGENT_PLUGIN_TOKEN_DIR: join(dir, 'tokens'),
      PROBE_SECRET: 'probe-secret-value-for-the-agent',
      LOG_LEVEL: 'debug',
      ...env,
    },
    logDestination: { write: (line: string) => lines.push(line) },
    plugins: options.plugins ?? probeCollection,
  });
  return {
    agent,
    dir,
    lines,
    logs: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    async get(path) {
      const res = await fetch(`http://127.0.0.1:${agent.port}${path}`);
      return { status: res.status, text: await res.text() };
    },
    async close() {
      await agent.shutdown('test over');
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` answers something truthy, or fails with `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not in ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A plugin template node of a TaskSet. */
export const pluginTask = (plugin: Record<string, unknown>, name = 'step') => ({
  name,
  inputs: {},
  outputs: {},
  metadata: {},
  plugin,
});
