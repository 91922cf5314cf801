// Two replicas of the built agent (dist/apps/shared-agent) as processes: the second to start gets half the shards
// from the first, the shards are split between them,
// each TaskSet is worked by one, and when one is killed with SIGKILL the other takes its shards within a lease
// period and works only what the status does not hold yet.
import { until } from './support/agent-harness.js';
import { RecordedReplicas } from './support/recorded-replicas.js';
import { ensureBuilt, type ReplicaProcess } from './support/replica-process.js';

const NS = 'team-a';
const SHARDS = 8;
const LEASE_MS = 2000;

describe('two shared agents', () => {
  let set: RecordedReplicas;

  beforeAll(async () => {
    ensureBuilt();
    set = await RecordedReplicas.start();
  });
  afterAll(() => set?.close());

  const count = (who: string) => set.holders(SHARDS).filter((h) => h === who).length;

  it('split the shards, work each task once, and survive one of them being killed', async () => {
    const env = { AGENT_SHARDS: String(SHARDS) };
    await set.replica('replica-a', env);
    const b: ReplicaProcess = await set.replica('replica-b', env);
    await until(
      'shards split',
      () => count('replica-a') === SHARDS / 2 && count('replica-b') === SHARDS / 2,
      20_000,
    );

    // Each workflow: `quick` succeeds at once; `slow` keeps running (requeue 300 ms) until the test lets it finish.
    const workflows = set.create(NS, 'wf', 16, 'quick', 'slow');
    await until(
      'quick ones written, slow ones running',
      () =>
        workflows.every(
          (wf) => set.phase(NS, wf, 'quick') === 'Succeeded' && set.phase(NS, wf, 'slow') === 'Running',
        ),
      20_000,
    );

    b.kill('SIGKILL');
    const killed = Date.now();
    await until('replica-a holds every shard', () => count('replica-a') === SHARDS, 20_000);
    const handoverMs = Date.now() - killed;
    // Within a lease period, plus the round in which the survivor looks (a fifth of it) and some slack.
    expect(handoverMs).toBeLessThan(LEASE_MS + LEASE_MS / 5 + 1500);

    set.finish = true;
    await set.allIn('every workflow over', NS, workflows, 'slow', 'Succeeded');
    // What the status held was not worked again; the running ones were offered again by the new owner.
    expect(set.callsOf(NS, workflows, 'quick')).toEqual(workflows.map(() => 1));
    expect(set.callsOf(NS, workflows, 'slow').every((n) => n >= 2)).toBe(true);
  }, 60_000);
});
