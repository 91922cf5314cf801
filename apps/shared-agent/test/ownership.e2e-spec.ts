// Two replicas as processes; one of them is cut off from the API server by a proxy that stops answering, or
// paused with SIGSTOP. Every plugin call is checked, when it arrives, against the Lease of its TaskSet's shard
// as the API server holds it then: a replica calling for a shard whose Lease another replica holds would run
// that step a second time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedPlugin } from '@app/testing';
import { shardOf } from '../src/leases/shard-leases.js';
import { FakeApi } from './support/fake-api.js';
import { HangingProxy } from './support/hanging-proxy.js';
import { pluginTask, until, writeToken } from './support/agent-harness.js';
import { ensureBuilt, ReplicaProcess } from './support/replica-process.js';

const NS = 'team-a';
const SHARDS = 8;
const LEASE_MS = 2000;

interface Call {
  replica: string;
  step: string;
  at: number;
  /** The holder of the shard's Lease when the call arrived. */
  holder: string;
}

describe('a replica cut off or paused', () => {
  let api: FakeApi;
  let dir: string;
  let finish = false;
  const calls: Call[] = [];
  const replicas: ReplicaProcess[] = [];
  const plugins: ScriptedPlugin[] = [];

  beforeAll(() => ensureBuilt());
  beforeEach(async () => {
    api = await FakeApi.start();
    dir = mkdtempSync(join(tmpdir(), 'shared-agent-ownership-'));
    writeToken(dir, 'hello', 'token-hello');
    finish = false;
    calls.length = 0;
  });
  afterEach(async () => {
    for (const r of replicas.splice(0)) {
      r.kill('SIGCONT');
      r.kill('SIGKILL');
    }
    await Promise.all(plugins.splice(0).map((p) => p.close()));
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const holderOf = (shard: number) =>
    (
      api.leaseList().find((l) => l.metadata.name === `shared-agent-shard-${shard}`)?.spec as
        { holderIdentity?: string } | undefined
    )?.holderIdentity ?? '';
  const holders = () => Array.from({ length: SHARDS }, (_, n) => holderOf(n));

  /** A replica with a plugin of its own, which records each call: `quick` succeeds, `slow` runs until `finish`. */
  async function startReplica(identity: string, server = api.url): Promise<ReplicaProcess> {
    const plugin = await new ScriptedPlugin('token-hello', (body) => {
      const wf = (body.workflow as { metadata: { name: string } }).metadata.name;
      const name = (body.template as { name: string }).name;
      calls.push({
        replica: identity,
        step: `${wf}/${name}`,
        at: Date.now(),
        holder: holderOf(shardOf(NS, wf, SHARDS)),
      });
      return name === 'quick' || finish
        ? { body: '{"node":{"phase":"Succeeded"}}' }
        : { body: '{"node":{"phase":"Running","message":"working"},"requeue":"300ms"}' };
    }).start();
    plugins.push(plugin);
    const kubeconfig = join(dir, `kubeconfig-${identity}`);
    writeFileSync(kubeconfig, api.kubeconfig().replace(api.url, server));
    const replica = new ReplicaProcess(identity, {
      KUBECONFIG: kubeconfig,
      PLUGINS: 'none',
      AGENT_EXTERNAL_PLUGINS: `hello=${plugin.url}`,
      AGENT_PLUGIN_TOKEN_DIR: join(dir, 'tokens'),
      AGENT_SHARDS: String(SHARDS),
      AGENT_LEASE_DURATION: `${LEASE_MS / 1000}s`,
      ARGO_AGENT_PATCH_RATE: '200ms',
    });
    replicas.push(replica);
    return replica;
  }

  async function slowStepsRunning(prefix: string, count: number): Promise<string[]> {
    const workflows = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
    for (const wf of workflows)
      api.createTaskSet(NS, wf, { [`${wf}-slow`]: pluginTask({ hello: {} }, 'slow') });
    await until(
      'every slow step running',
      () => workflows.every((wf) => api.nodes(NS, wf)[`${wf}-slow`]?.phase === 'Running'),
      20_000,
    );
    return workflows;
  }

  const byOthers = () => calls.filter((c) => c.holder !== c.replica);
  const lastCall = (replica: string) =>
    Math.max(...calls.filter((c) => c.replica === replica).map((c) => c.at));

  it('a replica whose API connection hangs stops starting tasks within 2/3 of the lease duration', async () => {
    const proxy = await HangingProxy.start(api.url);
    try {
      await startReplica('replica-a', proxy.url);
      await startReplica('replica-b');
      await until(
        'shards split',
        () => holders().filter((h) => h === 'replica-a').length === SHARDS / 2,
        20_000,
      );
      await until(
        'shards split',
        () => holders().filter((h) => h === 'replica-b').length === SHARDS / 2,
        20_000,
      );
      await slowStepsRunning('cut', 16);

      proxy.hang();
      const hungAt = Date.now();
      await until('replica-b holds every shard', () => holders().every((h) => h === 'replica-b'), 20_000);
      const takenAt = Date.now();
      await new Promise((r) => setTimeout(r, 3000)); // replica-a's renewals still hang; its API timeout is 30 s
      const stoppedAfter = lastCall('replica-a') - hungAt;
      console.log(
        `hanging API: replica-a's last call ${stoppedAfter} ms after the hang, replica-b held every shard after ${takenAt - hungAt} ms; ${byOthers().length} calls by a replica not holding the shard`,
      );
      expect(byOthers()).toEqual([]);
      // Its last renewal was sent at most a renewal period (400 ms) before the hang, and it stops 2/3 of the
      // lease duration after that.
      expect(stoppedAfter).toBeLessThan((LEASE_MS * 2) / 3 + 500);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a replica paused with SIGSTOP and continued starts nothing of the shards taken meanwhile', async () => {
    const a = await startReplica('replica-a');
    await startReplica('replica-b');
    await until(
      'shards split',
      () => holders().filter((h) => h === 'replica-a').length === SHARDS / 2,
      20_000,
    );
    await until(
      'shards split',
      () => holders().filter((h) => h === 'replica-b').length === SHARDS / 2,
      20_000,
    );
    const slow = await slowStepsRunning('paused', 16);

    a.kill('SIGSTOP');
    await until('replica-b holds every shard', () => holders().every((h) => h === 'replica-b'), 20_000);
    // Created while replica-a is paused: their watch events wait in its socket.
    const quick = Array.from({ length: 8 }, (_, i) => `new-${i}`);
    for (const wf of quick)
      api.createTaskSet(NS, wf, { [`${wf}-quick`]: pluginTask({ hello: {} }, 'quick') });
    await until('the new steps done', () => quick.every((wf) => api.nodes(NS, wf)[`${wf}-quick`]), 20_000);
    a.kill('SIGCONT');
    await new Promise((r) => setTimeout(r, 3000));
    finish = true;
    await until(
      'every workflow over',
      () => slow.every((wf) => api.nodes(NS, wf)[`${wf}-slow`]?.phase === 'Succeeded'),
      20_000,
    );
    console.log(`SIGSTOP: ${byOthers().length} calls by a replica not holding the shard`);
    expect(byOthers()).toEqual([]);
    expect(quick.map((wf) => calls.filter((c) => c.step === `${wf}/quick`).length)).toEqual(
      quick.map(() => 1),
    );
  }, 90_000);
});
