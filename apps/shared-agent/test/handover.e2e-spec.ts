// Two replicas of the built agent (dist/apps/shared-agent) as processes: the second to start gets half the shards
// from the first, the shards are split between them,
// each TaskSet is worked by one, and when one is killed with SIGKILL the other takes its shards within a lease
// period and works only what the status does not hold yet.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ScriptedPlugin } from '@app/testing';
import { FakeApi } from './support/fake-api.js';
import { pluginTask, until, writeToken } from './support/agent-harness.js';

const root = resolve(import.meta.dirname, '../../..');
const main = join(root, 'dist/apps/shared-agent/main.js');
const NS = 'team-a';
const SHARDS = 8;
const LEASE_MS = 2000;

describe('two shared agents', () => {
  let api: FakeApi;
  let plugin: ScriptedPlugin;
  let dir: string;
  const replicas = new Map<string, ChildProcess>();
  let finish = false;

  beforeAll(async () => {
    if (!existsSync(main)) execFileSync(process.execPath, [join(root, 'tools/build.mjs'), 'shared-agent']);
    api = await FakeApi.start();
    dir = mkdtempSync(join(tmpdir(), 'shared-agent-handover-'));
    writeFileSync(join(dir, 'kubeconfig'), api.kubeconfig());
    writeToken(dir, 'hello', 'token-hello');
    // `quick` succeeds at once; `slow` keeps running (requeue 300 ms) until the test lets it finish.
    plugin = await new ScriptedPlugin('token-hello', (body) =>
      (body.template as { name: string }).name === 'quick' || finish
        ? { body: '{"node":{"phase":"Succeeded"}}' }
        : { body: '{"node":{"phase":"Running","message":"working"},"requeue":"300ms"}' },
    ).start();
  });
  afterAll(async () => {
    for (const child of replicas.values()) child.kill('SIGKILL');
    await plugin?.close();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function startReplica(identity: string): void {
    const child = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH,
        KUBECONFIG: join(dir, 'kubeconfig'),
        PLUGINS: 'none',
        AGENT_EXTERNAL_PLUGINS: `hello=${plugin.url}`,
        AGENT_PLUGIN_TOKEN_DIR: join(dir, 'tokens'),
        AGENT_IDENTITY: identity,
        AGENT_PORT: '0',
        AGENT_HOST: '127.0.0.1',
        AGENT_SHARDS: String(SHARDS),
        AGENT_LEASE_DURATION: `${LEASE_MS / 1000}s`,
        ARGO_AGENT_PATCH_RATE: '200ms',
      },
      stdio: 'ignore',
    });
    replicas.set(identity, child);
  }

  const holders = () =>
    api
      .leaseList()
      .filter((l) => l.metadata.labels?.['executor-plugins.dev/lease'] === 'shard')
      .map((l) => (l.spec as { holderIdentity?: string }).holderIdentity ?? '');
  const count = (who: string) => holders().filter((h) => h === who).length;
  const calls = (wf: string, name: string) =>
    plugin.requests.filter((r) => {
      const body = JSON.parse(r.body) as {
        workflow: { metadata: { name: string } };
        template: { name: string };
      };
      return body.workflow.metadata.name === wf && body.template.name === name;
    }).length;

  it('split the shards, work each task once, and survive one of them being killed', async () => {
    startReplica('replica-a');
    startReplica('replica-b');
    await until(
      'shards split',
      () => count('replica-a') === SHARDS / 2 && count('replica-b') === SHARDS / 2,
      20_000,
    );

    const workflows = Array.from({ length: 16 }, (_, i) => `wf-${i}`);
    for (const wf of workflows)
      api.createTaskSet(NS, wf, {
        [`${wf}-quick`]: pluginTask({ hello: {} }, 'quick'),
        [`${wf}-slow`]: pluginTask({ hello: {} }, 'slow'),
      });
    const phase = (wf: string, kind: string) => api.nodes(NS, wf)[`${wf}-${kind}`]?.phase;
    await until(
      'quick ones written, slow ones running',
      () => workflows.every((wf) => phase(wf, 'quick') === 'Succeeded' && phase(wf, 'slow') === 'Running'),
      20_000,
    );

    replicas.get('replica-b')!.kill('SIGKILL');
    const killed = Date.now();
    await until('replica-a holds every shard', () => count('replica-a') === SHARDS, 20_000);
    const handoverMs = Date.now() - killed;
    // Within a lease period, plus the round in which the survivor looks (a fifth of it) and some slack.
    expect(handoverMs).toBeLessThan(LEASE_MS + LEASE_MS / 5 + 1500);

    finish = true;
    await until(
      'every workflow over',
      () => workflows.every((wf) => phase(wf, 'slow') === 'Succeeded'),
      20_000,
    );
    // What the status held was not worked again; the running ones were offered again by the new owner.
    expect(workflows.map((wf) => calls(wf, 'quick'))).toEqual(workflows.map(() => 1));
    expect(workflows.every((wf) => calls(wf, 'slow') >= 2)).toBe(true);
  });
});
