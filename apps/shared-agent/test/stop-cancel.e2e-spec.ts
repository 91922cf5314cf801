// A stopped workflow's running tasks: the replica running them cancels their remote work through the in-process
// plugin's cancel, once; a workflow that finishes, or is deleted, cancels nothing.
import { probeStats } from '../../../libs/plugin-kit/test/fixtures/probe-plugin.js';
import { collection } from '../../collection/src/collection.definition.js';
import { FakeApi } from './support/fake-api.js';
import { BACKENDS, startLongJobs, type LongJobs } from './support/long-jobs.js';
import { pluginTask, startAgent, until, type AgentHarness } from './support/agent-harness.js';

const NS = 'team-a';
const job = (name: string) => pluginTask({ probe: { outcome: 'job', key: name } }, name);
const settle = () => new Promise((r) => setTimeout(r, 1500));

describe('the shared agent, when a workflow is stopped', () => {
  let api: FakeApi;
  let h: AgentHarness | undefined;

  beforeEach(async () => {
    api = await FakeApi.start();
    api.autoComplete = false;
    probeStats.reset();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await api.close();
  });

  const running = (name: string, ids: string[]) =>
    until(`${ids.join(', ')} running`, () => ids.every((id) => api.nodes(NS, name)[id]?.phase === 'Running'));

  it.each(['Stop', 'Terminate'] as const)(
    '%s: each running task is cancelled once, and nothing is written for it',
    async (strategy) => {
      api.createTaskSet(NS, 'wf', { 'wf-1': job('one'), 'wf-2': job('two') });
      h = await startAgent(api);
      await running('wf', ['wf-1', 'wf-2']);
      const patches = api.patches.length;
      await api.stopWorkflow(NS, 'wf', strategy, ['wf-1', 'wf-2']);
      await until('both cancelled', () => probeStats.cancels.length === 2).catch((err: Error) => {
        throw new Error(
          `${err.message}\n${h?.lines.filter((l) => /stop|cancel|task done/.test(l)).join('\n')}`,
        );
      });
      await settle(); // a requeue (1 s) would have come by now
      expect(new Set(probeStats.cancels).size).toBe(2);
      const stopped = h
        .logs()
        .filter((l) => l.msg === "workflow stopped: the task's remote work was cancelled");
      expect(stopped.map((l) => [l.node, l.strategy]).sort()).toEqual([
        ['wf-1', strategy],
        ['wf-2', strategy],
      ]);
      expect(api.patches.slice(patches)).toEqual([]);
      const executions = probeStats.executions;
      await settle();
      expect(probeStats.executions).toBe(executions);
      expect(h.agent.metrics.registry.render()).toContain(
        'shared_agent_stop_cancels_total{outcome="sent"} 2',
      );
    },
  );

  it('a task still running while its workflow goes on under Stop (an exit handler) is left running', async () => {
    api.createTaskSet(NS, 'exit', { 'exit-1': job('main'), 'exit-2': job('handler') });
    h = await startAgent(api);
    await running('exit', ['exit-1', 'exit-2']);
    await api.stopWorkflow(NS, 'exit', 'Stop', ['exit-1']);
    await until('the stopped one cancelled', () => probeStats.cancels.length === 1);
    const calls = probeStats.byKey.size;
    await settle();
    expect(probeStats.cancels).toHaveLength(1);
    expect(probeStats.byKey.size).toBe(calls);
    expect(api.nodes(NS, 'exit')['exit-2']?.phase).toBe('Running');
  });

  it('a workflow that merely finishes, and one deleted, cancel nothing', async () => {
    api.createTaskSet(NS, 'done', { 'done-1': job('done') });
    api.createTaskSet(NS, 'gone', { 'gone-1': job('gone') });
    h = await startAgent(api);
    await running('done', ['done-1']);
    await running('gone', ['gone-1']);
    // Its node ended otherwise (the Workflow holds it fulfilled, no shutdown): the controller clears the task.
    api.setWorkflowNodes(NS, 'done', { 'done-1': { phase: 'Succeeded' } });
    api.clearTasks(NS, 'done', ['done-1']);
    api.deleteTaskSet(NS, 'gone');
    await settle();
    expect(probeStats.cancels).toEqual([]);
    expect(h.logs().filter((l) => String(l.msg).startsWith('workflow stopped'))).toEqual([]);
  });
});

describe('the shared agent, when a workflow is stopped, on every data-job and build backend', () => {
  let api: FakeApi;
  let jobs: LongJobs;
  let h: AgentHarness | undefined;

  beforeAll(async () => {
    jobs = await startLongJobs();
  });
  afterAll(() => jobs.close());
  beforeEach(async () => {
    api = await FakeApi.start();
    api.autoComplete = false;
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await api.close();
  });

  it("cancels each backend's job once through its provider's cancel, and nothing of another workflow", async () => {
    const tasks = (wf: string) =>
      Object.fromEntries(BACKENDS.map((b) => [`${wf}-${b}`, pluginTask(jobs.plugin(b, `${wf}-${b}`), b)]));
    api.createTaskSet(NS, 'stopped', tasks('stopped'));
    api.createTaskSet(NS, 'going', tasks('going'));
    h = await startAgent(api, { ...jobs.env, PLUGINS: 'data-job,build' }, { plugins: collection });
    const ids = (wf: string) => BACKENDS.map((b) => `${wf}-${b}`);
    await until(
      'every job running',
      () =>
        ['stopped', 'going'].every((wf) => ids(wf).every((id) => api.nodes(NS, wf)[id]?.phase === 'Running')),
      30_000,
    );
    expect(Object.values(jobs.cancels())).toEqual(BACKENDS.map(() => 0));
    await api.stopWorkflow(NS, 'stopped', 'Stop', ids('stopped'));
    await until(
      'every job cancelled',
      () => Object.values(jobs.cancels()).every((n) => n >= 1),
      20_000,
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${JSON.stringify(jobs.cancels())}\n${h?.lines.filter((l) => l.includes('cancel')).join('\n')}`,
      );
    });
    await settle();
    await settle(); // the other workflow polls on, every second
    expect(jobs.cancels()).toEqual(Object.fromEntries(BACKENDS.map((b) => [b, 1])));
    expect(ids('going').map((id) => api.nodes(NS, 'going')[id]?.phase)).toEqual(
      BACKENDS.map(() => 'Running'),
    );
  }, 60_000);
});
