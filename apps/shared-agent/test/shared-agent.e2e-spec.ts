// The shared agent against an API server in memory: Argo's agent rules, one test each.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ScriptedPlugin, type ScriptedReply } from '@app/local-agent';
import { probeStats } from '../../../libs/plugin-kit/test/fixtures/probe-plugin.js';
import { FakeApi } from './support/fake-api.js';
import { pluginTask, startAgent, until, writeToken, type AgentHarness } from './support/agent-harness.js';

const NS = 'team-a';

/** A folder with `tokens/<name>/token` = `token-<name>` for each external plugin. */
function tokenDir(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'shared-agent-ext-'));
  for (const n of names) writeToken(dir, n, `token-${n}`);
  return dir;
}

describe('the shared agent', () => {
  let api: FakeApi;
  let h: AgentHarness | undefined;
  const plugins: ScriptedPlugin[] = [];

  beforeEach(async () => {
    api = await FakeApi.start();
    probeStats.reset();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await Promise.all(plugins.splice(0).map((p) => p.close()));
    await api.close();
  });

  /** External plugins by URL, their tokens filed where the agent reads them. */
  async function external(
    names: string[],
    scripts: Array<ScriptedReply[] | ((body: Record<string, unknown>, call: number) => ScriptedReply)>,
    env: Record<string, string> = {},
  ): Promise<ScriptedPlugin[]> {
    const started = await Promise.all(
      scripts.map((s, i) => new ScriptedPlugin(`token-${names[i]}`, s).start()),
    );
    plugins.push(...started);
    const dir = tokenDir(names);
    h = await startAgent(
      api,
      {
        PLUGINS: 'none',
        AGENT_EXTERNAL_PLUGINS: names.map((n, i) => `${n}=${started[i]!.url}`).join(','),
        ...env,
      },
      { dir },
    );
    return started;
  }

  const phases = (name: string) =>
    Object.fromEntries(Object.entries(api.nodes(NS, name)).map(([id, n]) => [id, n.phase]));

  it('works each task not final in status.nodes, in process, and writes results by merge patch of the status', async () => {
    api.createTaskSet(
      NS,
      'wf',
      {
        'wf-1': pluginTask({ probe: { message: 'one' } }),
        'wf-2': pluginTask({ probe: { message: 'two' } }),
        'wf-3': pluginTask({ probe: {} }),
      },
      { 'wf-3': { phase: 'Succeeded' } },
    );
    h = await startAgent(api);
    await until(
      'both results written',
      () => phases('wf')['wf-1'] === 'Succeeded' && phases('wf')['wf-2'] === 'Succeeded',
    );
    expect(probeStats.executions).toBe(2);
    expect(api.nodes(NS, 'wf')['wf-1']).toMatchObject({
      phase: 'Succeeded',
      message: 'done',
      outputs: { parameters: expect.arrayContaining([{ name: 'greeting', value: 'one' }]) },
    });
    expect(api.patches.every((p) => !('wf-3' in p.nodes))).toBe(true);
    expect(api.requests.filter((r) => r.startsWith('PATCH /apis/argoproj.io'))).toEqual(
      api.patches.map(() => `PATCH /apis/argoproj.io/v1alpha1/namespaces/${NS}/workflowtasksets/wf/status`),
    );
    expect(h.logs().find((l) => l.msg === 'task done' && l.node === 'wf-1')).toMatchObject({
      namespace: NS,
      workflow: 'wf',
      phase: 'Succeeded',
    });
  });

  it("a TaskSet first seen with tasks in it: those the Workflow holds as fulfilled are not offered (the controller clears the TaskSet's status one patch before its tasks)", async () => {
    api.createTaskSet(NS, 'taken', {
      'taken-1': pluginTask({ probe: { message: 'done before' } }),
      'taken-2': pluginTask({ probe: { message: 'still to do' } }),
    });
    api.setWorkflowNodes(NS, 'taken', { 'taken-1': { phase: 'Succeeded' }, 'taken-2': { phase: 'Pending' } });
    api.createTaskSet(NS, 'unreadable', {
      'unreadable-1': pluginTask({ probe: { message: 'no workflow' } }),
    });
    h = await startAgent(api);
    await until(
      'the open tasks written',
      () =>
        phases('taken')['taken-2'] === 'Succeeded' && phases('unreadable')['unreadable-1'] === 'Succeeded',
    );
    expect(probeStats.executions).toBe(2);
    expect(phases('taken')['taken-1']).toBeUndefined();
    expect(h.logs().find((l) => l.workflow === 'taken' && Array.isArray(l.nodes))).toMatchObject({
      nodes: ['taken-1'],
    });
  });

  it('a task another replica ran, final when this one took the TaskSet, is not offered when the controller clears its result (its task leaves the spec one patch later)', async () => {
    api.createTaskSet(
      NS,
      'handed',
      { 'handed-1': pluginTask({ probe: { message: 'ran on the previous owner' } }) },
      { 'handed-1': { phase: 'Succeeded' } },
    );
    api.setWorkflowNodes(NS, 'handed', { 'handed-1': { phase: 'Running' } });
    h = await startAgent(api);
    await until('its shards taken', () => h!.logs().some((l) => l.msg === 'shards acquired'));
    await new Promise((resolve) => setTimeout(resolve, 300)); // and the TaskSet listed
    api.clearResults(NS, 'handed', ['handed-1']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    api.clearTasks(NS, 'handed', ['handed-1']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(probeStats.executions).toBe(0);
  });

  it('tells each plugin the workflow of the task: name, namespace, the uid of its owner and its creator labels ({} when unknown)', async () => {
    const [plugin] = await external(['hello'], [[{ body: '{"node":{"phase":"Succeeded"}}' }]]);
    api.createTaskSet(NS, 'named', { 'named-1': pluginTask({ hello: {} }) });
    await until('called', () => plugin!.calls === 1);
    expect(JSON.parse(plugin!.requests[0]!.body).workflow).toEqual({
      metadata: { name: 'named', namespace: NS, uid: 'wf-named-uid', labels: {} },
    });
    expect(plugin!.requests[0]!.path).toBe('/api/v1/template.execute');
  });

  it("passes the Workflow's creator labels, read from the Workflow, whatever the body says", async () => {
    const [plugin] = await external(['hello'], [[{ body: '{"node":{"phase":"Succeeded"}}' }]]);
    api.setWorkflowLabels(NS, 'created', {
      'workflows.argoproj.io/creator': 'alice-sub',
      'workflows.argoproj.io/creator-email': 'alice.at.example.com',
      team: 'not-a-creator-label',
    });
    api.createTaskSet(NS, 'created', {
      'created-1': pluginTask({ hello: { creator: 'bob@example.com' } }),
    });
    await until('called', () => plugin!.calls === 1);
    expect(JSON.parse(plugin!.requests[0]!.body).workflow.metadata.labels).toEqual({
      'workflows.argoproj.io/creator': 'alice-sub',
      'workflows.argoproj.io/creator-email': 'alice.at.example.com',
    });
  });

  it('offers a template to every plugin until one answers, and a 404 disables that plugin for that workflow only', async () => {
    const [first, second] = await external(
      ['first', 'second'],
      [[{ status: 404, body: 'not found' }], [{ body: '{"node":{"phase":"Succeeded"}}' }]],
    );
    // One task after the other: tasks called at once may all meet the 404 (Argo's agent too). The workflow
    // is not over between them.
    api.autoComplete = false;
    for (const wf of ['w1', 'w2']) api.createTaskSet(NS, wf, { [`${wf}-a`]: pluginTask({ x: {} }) });
    await until('first tasks', () => ['w1', 'w2'].every((w) => phases(w)[`${w}-a`] === 'Succeeded'));
    for (const wf of ['w1', 'w2']) api.addTasks(NS, wf, { [`${wf}-b`]: pluginTask({ x: {} }) });
    await until('second tasks', () => ['w1', 'w2'].every((w) => phases(w)[`${w}-b`] === 'Succeeded'));
    expect(first!.calls).toBe(2); // once per workflow
    expect(second!.calls).toBe(4);
  });

  it('decodes every reply into one shared reply: a requeue from one plugin with the node of the next', async () => {
    const [, second] = await external(
      ['first', 'second'],
      [
        [{ body: '{"requeue":"400ms"}' }],
        [
          { body: '{"node":{"phase":"Running","message":"working"}}' },
          { body: '{"node":{"phase":"Succeeded"}}' },
        ],
      ],
    );
    api.createTaskSet(NS, 'shared', { 'shared-1': pluginTask({ x: {} }) });
    await until('succeeded', () => phases('shared')['shared-1'] === 'Succeeded');
    expect(second!.calls).toBe(2);
    expect(api.patches.map((p) => (p.nodes['shared-1'] as { phase: string }).phase)).toEqual([
      'Running',
      'Succeeded',
    ]);
  });

  it('honours a requeue past 2^31 ms (720h): the task is not called again at once', async () => {
    const [plugin] = await external(['hello'], [[{ body: '{"node":{"phase":"Running"},"requeue":"720h"}' }]]);
    api.createTaskSet(NS, 'month', { 'month-1': pluginTask({ hello: {} }) });
    await until('called', () => plugin!.calls >= 1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(plugin!.calls).toBe(1);
  });

  it('calls again after the requeue; Succeeded ignores a requeue; Running without one is never called again', async () => {
    const [plugin] = await external(
      ['hello'],
      [
        (body) => {
          const name = (body.template as { name: string }).name;
          if (name === 'poll') return { body: '{"node":{"phase":"Running"},"requeue":"300ms"}' };
          if (name === 'done') return { body: '{"node":{"phase":"Succeeded"},"requeue":"200ms"}' };
          return { body: '{"node":{"phase":"Running","message":"no requeue"}}' };
        },
      ],
    );
    api.createTaskSet(NS, 'rq', {
      'rq-poll': pluginTask({ hello: {} }, 'poll'),
      'rq-done': pluginTask({ hello: {} }, 'done'),
      'rq-hang': pluginTask({ hello: {} }, 'hang'),
    });
    await until(
      'polled three times',
      () => plugin!.requests.filter((r) => r.body.includes('"name":"poll"')).length >= 3,
    );
    await new Promise((r) => setTimeout(r, 600));
    const calls = (name: string) =>
      plugin!.requests.filter((r) => r.body.includes(`"name":"${name}"`)).length;
    expect([calls('done'), calls('hang')]).toEqual([1, 1]);
    expect(phases('rq')).toMatchObject({
      'rq-done': 'Succeeded',
      'rq-hang': 'Running',
      'rq-poll': 'Running',
    });
  });

  it('fails a task no plugin answers; leaves a task that is neither a plugin nor an HTTP template alone, logged once', async () => {
    await external(['hello'], [[{ body: '{}' }]]);
    // Argo's open PR #16372 puts resource templates in the TaskSet, for an agent that runs them.
    const resource = { name: 'r', inputs: {}, outputs: {}, metadata: {}, resource: { action: 'create' } };
    api.createTaskSet(NS, 'odd', {
      'odd-1': pluginTask({ nobody: {} }),
      'odd-2': resource,
      'odd-3': { name: 'c', inputs: {}, outputs: {}, metadata: {}, container: { image: 'x' } },
    });
    await until('the plugin task written', () => api.nodes(NS, 'odd')['odd-1']);
    api.addTasks(NS, 'odd', { 'odd-4': pluginTask({ nobody: {} }) }); // the TaskSet changes: seen again
    await until('the next one written', () => api.nodes(NS, 'odd')['odd-4']);
    await new Promise((r) => setTimeout(r, 600)); // two more patch periods
    expect(api.nodes(NS, 'odd')).toEqual({
      'odd-1': { phase: 'Failed', message: 'no plugin executed the template' },
      'odd-4': { phase: 'Failed', message: 'no plugin executed the template' },
    });
    expect(
      api.patches.flatMap((p) => Object.keys(p.nodes)).filter((n) => n === 'odd-2' || n === 'odd-3'),
    ).toEqual([]);
    const left = h!
      .logs()
      .filter((l) => l.msg === 'task left for another agent: neither a plugin nor an HTTP template');
    expect(left.map((l) => [l.node, l.type])).toEqual([
      ['odd-2', 'Resource'],
      ['odd-3', 'Container'],
    ]);
  });

  describe('HTTP templates', () => {
    let server: Server;
    let url: string;
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        seen.push(req.headers);
        res.writeHead(200).end('pong');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
    });
    afterAll(() => server.close());

    const httpTask = (name: string) => ({
      name,
      inputs: {},
      outputs: {},
      metadata: {},
      http: {
        url,
        headers: [{ name: 'X-Token', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } }],
      },
    });

    // The upstream of these tests is on loopback, which the agent refuses by default.
    const reachLoopback = { AGENT_HTTP_BLOCKED_NETWORKS: '169.254.0.0/16' };

    it("reads a header's secret from the task's own namespace only", async () => {
      api.setSecret('team-b', 'creds', { token: 'b-secret' });
      h = await startAgent(api, reachLoopback);
      api.createTaskSet(NS, 'h1', { 'h1-1': httpTask('call') });
      await until('written', () => api.nodes(NS, 'h1')['h1-1']);
      expect(api.nodes(NS, 'h1')['h1-1']).toEqual({ phase: 'Failed', message: 'secrets "creds" not found' });
      expect(seen).toHaveLength(0);
      api.setSecret(NS, 'creds', { token: 'a-secret' });
      api.createTaskSet(NS, 'h2', { 'h2-1': httpTask('call') });
      await until('written', () => api.nodes(NS, 'h2')['h2-1']);
      expect(api.nodes(NS, 'h2')['h2-1']).toEqual({ phase: 'Succeeded', outputs: { result: 'pong' } });
      expect(seen[0]!['x-token']).toBe('a-secret');
      expect(h.lines.join('')).not.toContain('a-secret');
    });

    it("by default does not reach its own pod or a node's metadata endpoint (loopback, link-local)", async () => {
      h = await startAgent(api);
      const task = (name: string, target: string) => ({ ...httpTask(name), http: { url: target } });
      const port = new URL(url).port;
      api.createTaskSet(NS, 'b1', {
        'b1-1': task('self', url),
        'b1-2': task('name', `http://localhost:${port}/ping`),
        'b1-3': task('mapped', `http://[::ffff:127.0.0.1]:${port}/ping`),
        'b1-4': task('metadata', 'http://169.254.169.254/latest/meta-data/'),
      });
      await until('written', () => Object.keys(api.nodes(NS, 'b1')).length === 4 || undefined);
      const nodes = api.nodes(NS, 'b1');
      const refusal = (net: string) => `not allowed: ${net} is in AGENT_HTTP_BLOCKED_NETWORKS`;
      expect(nodes['b1-1']).toEqual({
        phase: 'Failed',
        message: `Get "${url}": dial tcp 127.0.0.1:${port}: ${refusal('127.0.0.0/8')}`,
      });
      expect(nodes['b1-2']!.message).toMatch(
        /^Get "http:\/\/localhost:\d+\/ping": dial tcp .*: not allowed: /,
      );
      expect(nodes['b1-3']!.message).toContain(refusal('127.0.0.0/8'));
      expect(nodes['b1-4']).toEqual({
        phase: 'Failed',
        message: `Get "http://169.254.169.254/latest/meta-data/": dial tcp 169.254.169.254:80: ${refusal('169.254.0.0/16')}`,
      });
      expect(seen).toHaveLength(1); // the secret test's call only
    });

    it("one namespace's hanging steps hold at most AGENT_MAX_TASKS_PER_NAMESPACE slots: another namespace's step starts at once", async () => {
      const held: Array<import('node:http').ServerResponse> = [];
      const hanging = createServer((_req, res) => void held.push(res));
      await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
      const never = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/never`;
      try {
        h = await startAgent(api, { ...reachLoopback, AGENT_SHUTDOWN_TIMEOUT: '1s' });
        const tasks = Object.fromEntries(
          Array.from({ length: 256 }, (_, i) => [
            `hang-${i}`,
            { ...httpTask(`h${i}`), http: { url: never } },
          ]),
        );
        api.createTaskSet(NS, 'hang', tasks);
        await until('the namespace at its share', () => held.length >= 64);
        await new Promise((r) => setTimeout(r, 500));
        expect(held).toHaveLength(64); // a quarter of AGENT_MAX_TASKS_IN_FLIGHT (256)
        const asked = Date.now();
        api.createTaskSet('team-b', 'other', { 'other-1': { ...httpTask('call'), http: { url } } });
        await until('the other namespace answered', () => api.nodes('team-b', 'other')['other-1']);
        const tookMs = Date.now() - asked;
        expect(api.nodes('team-b', 'other')['other-1']).toEqual({
          phase: 'Succeeded',
          outputs: { result: 'pong' },
        });
        expect(tookMs).toBeLessThan(2000); // its HTTP call and the next patch (200 ms)
        console.log(
          `fair slots: 64 of 256 hanging steps held, another namespace's step written in ${tookMs} ms`,
        );
      } finally {
        hanging.closeAllConnections();
        hanging.close();
      }
    });

    it('a bad AGENT_HTTP_BLOCKED_NETWORKS stops the start naming it', async () => {
      await expect(startAgent(api, { AGENT_HTTP_BLOCKED_NETWORKS: '10.0.0.0/40' })).rejects.toThrow(
        'AGENT_HTTP_BLOCKED_NETWORKS: "10.0.0.0/40" is not a network such as 169.254.0.0/16 or fe80::/10',
      );
    });
  });

  it('retries a transient patch failure, and turns the results of a refused patch into Error nodes', async () => {
    api.patchFaults.push({ status: 503, reason: 'ServiceUnavailable', message: 'busy' });
    h = await startAgent(api);
    api.createTaskSet(NS, 'p1', { 'p1-1': pluginTask({ probe: {} }) });
    await until('written after the retry', () => phases('p1')['p1-1'] === 'Succeeded', 15_000);
    const invalid = 'WorkflowTaskSet.argoproj.io "p2" is invalid: status.nodes: Too long';
    api.patchFaults.push({ status: 422, reason: 'Invalid', message: invalid });
    api.createTaskSet(NS, 'p2', { 'p2-1': pluginTask({ probe: {} }) });
    await until('written', () => api.nodes(NS, 'p2')['p2-1']);
    expect(api.nodes(NS, 'p2')['p2-1']).toEqual({
      phase: 'Error',
      message: `HTTP request completed successfully but an error occurred when patching its result: ${invalid}`,
    });
    expect(h.agent.metrics.patchErrors.get({ transient: 'true' })).toBe(1);
    expect(h.agent.metrics.patchErrors.get({ transient: 'false' })).toBe(1);
  });

  it('runs at most AGENT_MAX_TASKS_IN_FLIGHT tasks at once; the others wait and all end', async () => {
    let running = 0;
    let peak = 0;
    const slow = new ScriptedPlugin('token-slow', () => {
      running++;
      peak = Math.max(peak, running);
      setTimeout(() => running--, 250);
      return { body: '{"node":{"phase":"Succeeded"}}', delayMs: 250 };
    });
    await slow.start();
    plugins.push(slow);
    const dir = tokenDir(['slow']);
    h = await startAgent(
      api,
      {
        PLUGINS: 'none',
        AGENT_EXTERNAL_PLUGINS: `slow=${slow.url}`,
        AGENT_MAX_TASKS_IN_FLIGHT: '2',
        AGENT_MAX_TASKS_PER_NAMESPACE: '2',
      },
      { dir },
    );
    for (const wf of ['b1', 'b2', 'b3'])
      api.createTaskSet(NS, wf, { [`${wf}-1`]: pluginTask({ x: {} }), [`${wf}-2`]: pluginTask({ x: {} }) });
    await until(
      'all six',
      () => slow.calls === 6 && ['b1', 'b2', 'b3'].every((w) => Object.keys(phases(w)).length === 2),
      15_000,
    );
    expect(peak).toBe(2);
  });

  it('holds TaskSets within AGENT_WATCH_MEMORY: the others wait, are read again later, and all end', async () => {
    const big = 'x'.repeat(300_000);
    const [plugin] = await external(['hello'], [[{ body: '{"node":{"phase":"Succeeded"}}', delayMs: 100 }]], {
      AGENT_WATCH_MEMORY: String(1024 * 1024),
    });
    for (const wf of ['m1', 'm2', 'm3', 'm4'])
      api.createTaskSet(NS, wf, { [`${wf}-1`]: pluginTask({ hello: { big } }) });
    await until(
      'all four',
      () => ['m1', 'm2', 'm3', 'm4'].every((w) => phases(w)[`${w}-1`] === 'Succeeded'),
      20_000,
    );
    expect(plugin!.calls).toBe(4);
    expect(h!.logs().filter((l) => l.msg === 'TaskSet waits for memory').length).toBeGreaterThan(0);
    expect(
      api.requests.filter((r) =>
        /^GET \/apis\/argoproj.io\/v1alpha1\/namespaces\/team-a\/workflowtasksets\/m\d$/.test(r),
      ).length,
    ).toBeGreaterThan(0);
  });

  it('on SIGTERM stops taking tasks, finishes those in flight, writes them and releases its Leases', async () => {
    const [plugin] = await external(['hello'], [[{ body: '{"node":{"phase":"Succeeded"}}', delayMs: 800 }]]);
    api.createTaskSet(NS, 'g', { 'g-1': pluginTask({ hello: {} }) });
    await until('in flight', () => plugin!.calls === 1);
    const stopping = h!.agent.shutdown('SIGTERM');
    api.addTasks(NS, 'g', { 'g-2': pluginTask({ hello: {} }) });
    await stopping;
    expect(phases('g')).toEqual({ 'g-1': 'Succeeded' });
    expect(plugin!.calls).toBe(1);
    const leases = api.leaseList();
    expect(leases.filter((l) => l.metadata.labels?.['executor-plugins.dev/lease'] === 'member')).toEqual([]);
    expect(leases.map((l) => (l.spec as { holderIdentity: string }).holderIdentity)).toEqual([
      '',
      '',
      '',
      '',
    ]);
    h = undefined;
  });

  it('a stop hands its shards over once the controller has taken the results written (their tasks left the TaskSet), at most AGENT_HANDOVER_RESULT_WAIT', async () => {
    const holders = () =>
      api
        .leaseList()
        .filter((l) => l.metadata.labels?.['executor-plugins.dev/lease'] !== 'member')
        .map((l) => (l.spec as { holderIdentity: string }).holderIdentity);
    api.autoComplete = false; // the controller's part is played below
    h = await startAgent(api, { AGENT_HANDOVER_RESULT_WAIT: '4s' });
    api.createTaskSet(NS, 'taken', { 'taken-1': pluginTask({ probe: {} }) });
    await until('the result written', () => phases('taken')['taken-1'] === 'Succeeded');
    const started = Date.now();
    const stopping = h.agent.shutdown('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(holders().filter((holder) => holder === 'replica-a')).toHaveLength(4);
    api.clearTasks(NS, 'taken', ['taken-1']);
    await stopping;
    expect(Date.now() - started).toBeLessThan(2500);
    expect(holders()).toEqual(['', '', '', '']);
    h = undefined;

    // The controller never takes them: handed over after the wait, saying so.
    h = await startAgent(api, { AGENT_HANDOVER_RESULT_WAIT: '1s' });
    api.createTaskSet(NS, 'left', { 'left-1': pluginTask({ probe: {} }) });
    await until('the result written', () => phases('left')['left-1'] === 'Succeeded');
    const waited = Date.now();
    await h.agent.shutdown('SIGTERM');
    expect(Date.now() - waited).toBeGreaterThanOrEqual(1000);
    expect(
      h.logs().find((l) => l.msg === 'handed over before the controller took their results'),
    ).toMatchObject({
      taskSets: [`${NS}/left`],
    });
    h = undefined;
  });

  it('answers /healthz, /readyz and /metrics', async () => {
    h = await startAgent(api);
    api.createTaskSet(NS, 'm', { 'm-1': pluginTask({ probe: {} }) });
    await until('written', () => phases('m')['m-1'] === 'Succeeded');
    const harness = h;
    expect(await harness.get('/healthz')).toEqual({ status: 200, text: 'ok\n' });
    await until('ready', () => harness.agent.leases.notReady === undefined);
    expect((await harness.get('/readyz')).status).toBe(200);
    const metrics = (await harness.get('/metrics')).text;
    for (const line of [
      'shared_agent_tasks_total{phase="Succeeded"} 1',
      'shared_agent_task_to_patch_seconds_count 1',
      'shared_agent_tasks_in_flight 0',
      'shared_agent_patch_errors_total',
      'shared_agent_lease_changes_total{change="acquired"} 4',
      'shared_agent_shards_held 4',
    ])
      expect(metrics).toContain(line);
    expect((await harness.get('/other')).status).toBe(404);
  });
});
