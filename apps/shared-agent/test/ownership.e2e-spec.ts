// Two replicas as processes; one of them is cut off from the API server by a proxy that stops answering, or
// paused with SIGSTOP. Every plugin call is checked, when it arrives, against the Lease of its TaskSet's shard
// as the API server holds it then: a replica calling for a shard whose Lease another replica holds would run
// that step a second time.
import { shardOf } from '../src/leases/shard-leases.js';
import { HangingProxy } from './support/hanging-proxy.js';
import { until } from './support/agent-harness.js';
import { RecordedReplicas } from './support/recorded-replicas.js';
import { ensureBuilt } from './support/replica-process.js';

const NS = 'team-a';
const SHARDS = 8;
const LEASE_MS = 2000;
const env = { AGENT_SHARDS: String(SHARDS) };

describe('a replica cut off or paused', () => {
  let set: RecordedReplicas;

  beforeAll(() => ensureBuilt());
  beforeEach(async () => {
    set = await RecordedReplicas.start();
    set.holderAt = (namespace, wf) => set.holderOf(shardOf(namespace, wf, SHARDS));
  });
  afterEach(() => set.close());

  const count = (who: string) => set.holders(SHARDS).filter((h) => h === who).length;
  async function split(): Promise<void> {
    await until('shards split', () => count('replica-a') === SHARDS / 2, 20_000);
    await until('shards split', () => count('replica-b') === SHARDS / 2, 20_000);
  }
  const byOthers = () => set.calls.filter((c) => c.holder !== c.replica);
  const lastCall = (replica: string) =>
    Math.max(...set.calls.filter((c) => c.replica === replica).map((c) => c.at));

  it('a replica whose API connection hangs stops starting tasks within 2/3 of the lease duration', async () => {
    const proxy = await HangingProxy.start(set.api.url);
    try {
      await set.replica('replica-a', env, proxy.url);
      await set.replica('replica-b', env);
      await split();
      await set.allIn('every slow step running', NS, set.create(NS, 'cut', 16, 'slow'), 'slow', 'Running');

      proxy.hang();
      const hungAt = Date.now();
      await until('replica-b holds every shard', () => count('replica-b') === SHARDS, 20_000);
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

  it('a replica whose API connection stalls for less than a lease pauses its shards and resumes them: nothing runs twice', async () => {
    const proxy = await HangingProxy.start(set.api.url);
    try {
      // A patch period long enough that the results of the steps below still wait when the connection stalls.
      const slowPatch = { ...env, ARGO_AGENT_PATCH_RATE: '5s' };
      const a = await set.replica('replica-a', slowPatch, proxy.url);
      await set.replica('replica-b', slowPatch);
      await split();
      const quick = set.create(NS, 'stall', 16, 'quick');
      await until(
        'replica-a called its steps',
        () => set.calls.some((c) => c.replica === 'replica-a'),
        20_000,
      );
      proxy.hang();
      await new Promise((r) => setTimeout(r, 1500)); // past 2/3 of the lease, short of the lease
      proxy.resume();
      await set.allIn('every step written', NS, quick, 'quick', 'Succeeded');
      await new Promise((r) => setTimeout(r, 1000));
      expect(set.callsOf(NS, quick, 'quick')).toEqual(quick.map(() => 1));
      expect(byOthers()).toEqual([]);
      const said = a.logs().map((l) => l.msg);
      expect(said).toContain('shards paused: member Lease not renewed within 2/3 of the lease duration');
      if (!said.includes('shards lost'))
        expect(said).toContain('shards resumed: their Leases are as this replica left them');
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a replica paused with SIGSTOP and continued starts nothing of the shards taken meanwhile', async () => {
    const a = await set.replica('replica-a', env);
    await set.replica('replica-b', env);
    await split();
    const slow = set.create(NS, 'paused', 16, 'slow');
    await set.allIn('every slow step running', NS, slow, 'slow', 'Running');

    a.kill('SIGSTOP');
    await until('replica-b holds every shard', () => count('replica-b') === SHARDS, 20_000);
    // Created while replica-a is paused: their watch events wait in its socket.
    const quick = set.create(NS, 'new', 8, 'quick');
    await set.allIn('the new steps done', NS, quick, 'quick', 'Succeeded');
    a.kill('SIGCONT');
    await new Promise((r) => setTimeout(r, 3000));
    set.finish = true;
    await set.allIn('every workflow over', NS, slow, 'slow', 'Succeeded');
    console.log(`SIGSTOP: ${byOthers().length} calls by a replica not holding the shard`);
    expect(byOthers()).toEqual([]);
    expect(set.callsOf(NS, quick, 'quick')).toEqual(quick.map(() => 1));
  }, 90_000);
});
