// A replica that takes a shard and is paused before it has read the shard's TaskSets (its member Lease renewed
// late, as on a busy machine: found by the real-Argo replica suite, where such TaskSets waited until the replica
// restarted): what it reads and what the watch brings while paused is kept, and worked once the shard resumes.
import { probeStats } from '../../../libs/plugin-kit/test/fixtures/probe-plugin.js';
import { FakeApi } from './support/fake-api.js';
import { pluginTask, startAgent, until, type AgentHarness } from './support/agent-harness.js';

const NS = 'team-a';

describe('a shard taken while the replica is paused', () => {
  let api: FakeApi;
  let h: AgentHarness | undefined;

  beforeEach(async () => {
    api = await FakeApi.start();
    probeStats.reset();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await api.close();
  });

  it('its TaskSets, listed or watched meanwhile, run once it resumes', async () => {
    h = await startAgent(api, { AGENT_SHARDS: '1' });
    await until('the shard held', () => h!.logs().some((l) => l.msg === 'shards acquired'));
    const { agent, leases } = h.agent;
    // Paused as a late renewal pauses a replica: the Lease held, no task started.
    let paused = true;
    const owns = leases.owns.bind(leases);
    leases.owns = (shard) => !paused && owns(shard);
    agent.lost([0]); // the shard as before its acquisition: nothing of it known

    api.createTaskSet(NS, 'listed', { 'listed-1': pluginTask({ probe: {} }) });
    agent.acquired([0]); // its TaskSets are listed while paused
    await new Promise((r) => setTimeout(r, 300));
    api.createTaskSet(NS, 'watched', { 'watched-1': pluginTask({ probe: {} }) });
    await new Promise((r) => setTimeout(r, 500));
    expect(probeStats.executions).toBe(0);

    paused = false;
    agent.resumed([0]);
    await until(
      'both steps written',
      () =>
        api.nodes(NS, 'listed')['listed-1']?.phase === 'Succeeded' &&
        api.nodes(NS, 'watched')['watched-1']?.phase === 'Succeeded',
    );
    expect(probeStats.executions).toBe(2);
  });
});
