// Replicas that must not share a set of Leases, as processes: another agent with the same Lease names, a second
// process with the same AGENT_IDENTITY, and replicas of another AGENT_SHARDS during a rollout. Each is refused
// with one log line and not ready, and every step runs once.
import { until } from './support/agent-harness.js';
import { RecordedReplicas } from './support/recorded-replicas.js';
import { ensureBuilt, type ReplicaProcess } from './support/replica-process.js';

const refusals = (r: ReplicaProcess) => r.logs().filter((l) => l.msg === 'not working any shard');
/** The refusal is logged once per change of state, never once per round. */
const loggedOnce = (r: ReplicaProcess) =>
  1 + r.logs().filter((l) => l.msg === 'working shards again: no replica of another scope is alive').length;
const readyz = async (r: ReplicaProcess) => {
  const port = await r.port();
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  return `${res.status} ${await res.text()}`;
};
const started = (r: ReplicaProcess) =>
  until(`${r.identity} holds shards`, () => r.logs().some((l) => l.msg === 'shards acquired'), 20_000);

describe('Lease sets', () => {
  let set: RecordedReplicas;

  beforeAll(() => ensureBuilt());
  beforeEach(async () => (set = await RecordedReplicas.start()));
  afterEach(() => set.close());

  it('another agent (other namespaces) on the same Lease names is refused; with its own prefix it works', async () => {
    const a = await set.replica('agent-a-0', { AGENT_NAMESPACES: 'team-a', AGENT_SHARDS: '4' });
    await started(a);
    const b = await set.replica('agent-b-0', { AGENT_NAMESPACES: 'team-b', AGENT_SHARDS: '4' });
    await until('agent-b refuses', () => refusals(b).length > 0, 20_000);
    expect(await readyz(b)).toMatch(
      /^503 not ready: these Leases belong to another agent \(shards=4;instance=;namespaces=team-a; this one: shards=4;instance=;namespaces=team-b\): give each agent its own AGENT_LEASE_PREFIX/,
    );

    const ours = set.create('team-a', 'a', 8, 'quick');
    await set.allIn('team-a done', 'team-a', ours, 'quick', 'Succeeded');
    expect(set.callsOf('team-a', ours, 'quick')).toEqual(ours.map(() => 1));
    expect(set.calls.filter((c) => c.replica === 'agent-b-0')).toEqual([]);
    expect(refusals(b)).toHaveLength(loggedOnce(b));

    const own = await set.replica('agent-b-1', {
      AGENT_NAMESPACES: 'team-b',
      AGENT_SHARDS: '4',
      AGENT_LEASE_PREFIX: 'agent-b',
    });
    await started(own);
    const theirs = set.create('team-b', 'b', 8, 'quick');
    await set.allIn('team-b done', 'team-b', theirs, 'quick', 'Succeeded');
    expect(set.callsOf('team-b', theirs, 'quick')).toEqual(theirs.map(() => 1));
    expect(refusals(own)).toEqual([]);
  }, 60_000);

  it('a second process with the same AGENT_IDENTITY is refused; one restarted under it waits a lease period, then works', async () => {
    const first = await set.replica('replica-a', { AGENT_SHARDS: '4' });
    await started(first);
    const twin = await set.replica('replica-a', { AGENT_SHARDS: '4' });
    await until('the twin refuses', () => refusals(twin).length > 0, 20_000);
    expect(await readyz(twin)).toMatch(
      /^503 not ready: another replica renews the member Lease shared-agent-member-replica-a of AGENT_IDENTITY=replica-a/,
    );
    const steps = set.create('team-a', 'once', 8, 'quick');
    await set.allIn('done', 'team-a', steps, 'quick', 'Succeeded');
    expect(set.callsOf('team-a', steps, 'quick')).toEqual(steps.map(() => 1));
    expect(refusals(twin)).toHaveLength(1);

    first.kill('SIGKILL');
    const killed = Date.now();
    const restarted = await set.replica('replica-a', { AGENT_SHARDS: '4' });
    await started(restarted);
    const waitedMs = Date.now() - killed;
    const later = set.create('team-a', 'later', 4, 'quick');
    await set.allIn('done', 'team-a', later, 'quick', 'Succeeded');
    expect(set.callsOf('team-a', later, 'quick')).toEqual(later.map(() => 1));
    expect(refusals(restarted)).toEqual([]);
    console.log(`same identity: the restarted replica took its shards ${waitedMs} ms after the kill`);
  }, 60_000);

  it('replicas of another AGENT_SHARDS wait, not ready, until those of the old count have stopped: nothing lost, nothing doubled', async () => {
    const old = [
      await set.replica('old-0', { AGENT_SHARDS: '8' }),
      await set.replica('old-1', { AGENT_SHARDS: '8' }),
    ];
    for (const r of old) await started(r);
    const slow = set.create('team-a', 'slow', 16, 'slow');
    await set.allIn('running', 'team-a', slow, 'slow', 'Running');

    const fresh = await set.replica('new-0', { AGENT_SHARDS: '4' });
    await until('the new replica refuses', () => refusals(fresh).length > 0, 20_000);
    expect(await readyz(fresh)).toMatch(/^503 not ready: replicas alive with AGENT_SHARDS=8, this one has 4/);
    const during = set.create('team-a', 'during', 16, 'quick');
    await set.allIn('done', 'team-a', during, 'quick', 'Succeeded');

    for (const r of old) r.kill('SIGTERM');
    const stoppedAt = Date.now();
    await until('the new replica works', () => fresh.logs().some((l) => l.msg === 'shards acquired'), 20_000);
    const takenMs = Date.now() - stoppedAt;
    const after = set.create('team-a', 'after', 16, 'quick');
    await set.allIn('done', 'team-a', after, 'quick', 'Succeeded');
    set.finish = true;
    await set.allIn('slow ones over', 'team-a', slow, 'slow', 'Succeeded');

    expect(set.callsOf('team-a', [...during, ...after], 'quick')).toEqual([...during, ...after].map(() => 1));
    expect(set.calls.filter((c) => c.replica === 'new-0' && c.at < stoppedAt)).toEqual([]);
    expect(refusals(fresh).length).toBeLessThanOrEqual(loggedOnce(fresh));
    console.log(
      `AGENT_SHARDS 8 -> 4: the new replica took the shards ${takenMs} ms after the old ones were stopped; ${set.calls.length} calls, none doubled`,
    );
  }, 90_000);

  it('a replica holding no shard (more replicas than shards) is ready', async () => {
    const a = await set.replica('replica-a', { AGENT_SHARDS: '1' });
    await started(a);
    const b = await set.replica('replica-b', { AGENT_SHARDS: '1' });
    const deadline = Date.now() + 20_000;
    while ((await readyz(b)) !== '200 ok\n' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000)); // and stays so, holding nothing
    expect(await readyz(b)).toBe('200 ok\n');
    expect(b.logs().some((l) => l.msg === 'shards acquired')).toBe(false);
  }, 60_000);
});
