import { runWorkflow, type RunOptions } from '@app/local-agent';
import { keyed, ScriptedPlugin, type ScriptedReply } from '../src/scripted-plugin.js';

const TOKEN = 'bcdfghjklmnpqrstvwxz2456789bcdfg';
const fast: Partial<RunOptions> = { rpc: { timeoutMs: 400, backoffMs: 20, attempts: 5 }, timeScale: 0.01 };
const ok = (phase: string, extra: Record<string, unknown> = {}): ScriptedReply => ({
  body: JSON.stringify({ node: { phase, ...extra } }),
});

function workflow(plugin: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'agent-test-' },
    spec: { entrypoint: 'main', templates: [{ name: 'main', plugin, ...extra }] },
  };
}

describe('local agent: calls plugins exactly as Argo does', () => {
  const started: ScriptedPlugin[] = [];
  const plugin = async (script: ConstructorParameters<typeof ScriptedPlugin>[1]) => {
    const p = await new ScriptedPlugin(TOKEN, script).start();
    started.push(p);
    return p;
  };
  const asAgent = (...plugins: ScriptedPlugin[]) => ({
    ...fast,
    plugins: plugins.map((p, i) => ({ name: `p${i}`, url: p.url, token: TOKEN })),
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.close()));
  });

  it('Running with a requeue, then Succeeded: called again with the identical request', async () => {
    const p = await plugin([
      { body: '{"node":{"phase":"Running","message":"started"},"requeue":"2s"}' },
      ok('Succeeded', { message: 'done' }),
    ]);
    const started = Date.now();
    const result = await runWorkflow(workflow({ hello: {} }), asAgent(p));
    expect(result.phase).toBe('Succeeded');
    expect(p.calls).toBe(2);
    expect(p.requests[0].body).toBe(p.requests[1].body);
    expect(Date.now() - started).toBeGreaterThanOrEqual(20); // 2s × timeScale 0.01
    expect(result.node(result.name)).toMatchObject({ phase: 'Succeeded', message: 'done', calls: 2 });
  });

  it('sends exactly the headers and JSON body of the Go agent', async () => {
    const p = await plugin([ok('Succeeded')]);
    const result = await runWorkflow(workflow({ hello: { z: '<a&b>', a: 1 } }), asAgent(p));
    const { headers, body, path } = p.requests[0];
    expect(path).toBe('/api/v1/template.execute');
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
      'user-agent': 'Go-http-client/1.1',
    });
    expect(body).toBe(
      `{"workflow":{"metadata":{"name":"${result.name}","namespace":"argo","uid":"${result.uid}"}},` +
        '"template":{"name":"main","inputs":{},"outputs":{},"metadata":{},"plugin":{"hello":{"a":1,"z":"\\u003ca\\u0026b\\u003e"}}}}',
    );
  });

  it('503 twice then 200: retried with backoff, 3 attempts, node Succeeded', async () => {
    const p = await plugin([{ status: 503, body: 'busy' }, { status: 503, body: 'busy' }, ok('Succeeded')]);
    const result = await runWorkflow(workflow({ hello: {} }), asAgent(p));
    expect(result.phase).toBe('Succeeded');
    expect(p.calls).toBe(3);
  });

  it('503 on every attempt: the node fails after 5 attempts with the body as the message', async () => {
    const p = await plugin([{ status: 503, body: 'still starting' }]);
    const result = await runWorkflow(workflow({ hello: {} }), asAgent(p));
    expect(result.phase).toBe('Failed');
    expect(p.calls).toBe(5);
    expect(result.node(result.name)?.message).toBe('still starting');
  });

  it('a connection refused is retried, then fails the node', async () => {
    const p = await plugin([ok('Succeeded')]);
    const url = p.url;
    await p.close();
    started.splice(0);
    const result = await runWorkflow(workflow({ hello: {} }), {
      ...fast,
      plugins: [{ name: 'gone', url, token: TOKEN }],
    });
    expect(result.phase).toBe('Failed');
    expect(result.rpcCalls.gone).toBe(5);
    expect(result.node(result.name)?.message).toContain('connection refused');
  });

  it("the time scale scales Argo's 1-2-4-8 s connection backoff too", async () => {
    const p = await plugin([ok('Succeeded')]);
    const url = p.url;
    await p.close();
    started.splice(0);
    const begun = Date.now();
    const result = await runWorkflow(workflow({ hello: {} }), {
      timeScale: 0.01,
      plugins: [{ name: 'gone', url, token: TOKEN }],
    });
    const ms = Date.now() - begun;
    expect({ phase: result.phase, attempts: result.rpcCalls.gone }).toEqual({ phase: 'Failed', attempts: 5 });
    // (1 + 2 + 4 + 8) s × 0.01 = 150 ms, plus up to 20 % jitter; unscaled it took over 15 s
    expect(ms).toBeGreaterThanOrEqual(150);
    expect(ms).toBeLessThan(3000);
  });

  it('404 disables that plugin for the rest of the run; another plugin executes the template', async () => {
    const notFound = await plugin([{ status: 404, body: 'not found' }]);
    const hello = await plugin(keyed('hello', () => ok('Succeeded')));
    const wf = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { generateName: 'x-' },
      spec: {
        entrypoint: 'main',
        templates: [
          {
            name: 'main',
            steps: [
              [{ name: 'a', template: 'h' }],
              [{ name: 'b', template: 'h' }],
              [{ name: 'c', template: 'h' }],
            ],
          },
          { name: 'h', plugin: { hello: {} } },
        ],
      },
    };
    const result = await runWorkflow(wf, asAgent(notFound, hello));
    expect(result.phase).toBe('Succeeded');
    expect(notFound.calls).toBeLessThanOrEqual(1);
    expect(hello.calls).toBe(3);
  });

  it('{} and null mean "not mine": the next plugin gets it; with no taker the node fails', async () => {
    const foreign = await plugin([{ body: '{}' }]);
    const nullish = await plugin([{ body: 'null' }]);
    const none = await runWorkflow(workflow({ hello: {} }), asAgent(foreign, nullish));
    expect(none.phase).toBe('Failed');
    expect(none.node(none.name)?.message).toBe('no plugin executed the template');
    const hello = await plugin(keyed('hello', () => ok('Succeeded')));
    expect((await runWorkflow(workflow({ hello: {} }), asAgent(foreign, nullish, hello))).phase).toBe(
      'Succeeded',
    );
  });

  it('a numeric requeue fails the node with the decode error', async () => {
    const p = await plugin([{ body: '{"node":{"phase":"Running"},"requeue":30}' }]);
    const result = await runWorkflow(workflow({ hello: {} }), asAgent(p));
    expect(result.phase).toBe('Failed');
    // metav1.Duration's UnmarshalJSON error gets the decoder's field context (encoding/json addErrorContext).
    expect(result.node(result.name)?.message).toBe(
      'json: cannot unmarshal number into Go struct field ExecuteTemplateReply.requeue of type string',
    );
    expect(p.calls).toBe(1);
  });

  it('a reply slower than the timeout is retried, up to 5 attempts', async () => {
    const p = await plugin([{ delayMs: 1000, body: '{"node":{"phase":"Succeeded"}}' }]);
    const result = await runWorkflow(workflow({ hello: {} }), asAgent(p));
    expect(result.phase).toBe('Failed');
    expect(p.calls).toBe(5);
    expect(result.node(result.name)?.message).toContain('Client.Timeout exceeded');
  });

  it('a slow first reply then a fast one: retried and Succeeded', async () => {
    const p = await plugin([{ delayMs: 1000, body: '{}' }, ok('Succeeded')]);
    expect((await runWorkflow(workflow({ hello: {} }), asAgent(p))).phase).toBe('Succeeded');
    expect(p.calls).toBe(2);
  });

  it('an empty 200 body fails the node with EOF; truncated JSON is retried', async () => {
    const empty = await plugin([{ body: '' }]);
    const e = await runWorkflow(workflow({ hello: {} }), asAgent(empty));
    expect(e.node(e.name)?.message).toBe('EOF');
    expect(empty.calls).toBe(1);
    const truncated = await plugin([{ body: '{"node":{"phase":"Succ' }, ok('Succeeded')]);
    expect((await runWorkflow(workflow({ hello: {} }), asAgent(truncated))).phase).toBe('Succeeded');
    expect(truncated.calls).toBe(2);
  });

  it('any other status is fatal with "<status>: <body>" (201 included); 403 has a trailing space', async () => {
    const created = await plugin([{ status: 201, body: '{"node":{"phase":"Succeeded"}}' }]);
    const c = await runWorkflow(workflow({ hello: {} }), asAgent(created));
    expect(c.node(c.name)?.message).toBe('201 Created: {"node":{"phase":"Succeeded"}}');
    const forbidden = await plugin([{ status: 403, body: '' }]);
    const f = await runWorkflow(workflow({ hello: {} }), asAgent(forbidden));
    expect(f.node(f.name)?.message).toBe('403 Forbidden: ');
    expect(forbidden.calls).toBe(1);
  });

  it('Running without a requeue is reported as a hang (never called again)', async () => {
    const p = await plugin([{ body: '{"node":{"phase":"Running","message":"forever"}}' }]);
    const result = await runWorkflow(workflow({ hello: {} }), asAgent(p));
    expect(p.calls).toBe(1);
    expect(result.phase).toBe('Running');
    expect(result.node(result.name)).toMatchObject({ hung: true, phase: 'Running' });
    // The node keeps the plugin's message, as under the real agent; the hang is said in a warning.
    expect(result.node(result.name)?.message).toBe('forever');
    expect(result.warnings).toEqual([expect.stringContaining('Running without a requeue')]);
  });

  it('a requeue past 2^31 ms (720h) is waited, up to the deadline, not repeated at once', async () => {
    const p = await plugin([{ body: '{"node":{"phase":"Running"},"requeue":"720h"}' }]);
    const started = Date.now();
    const result = await runWorkflow(workflow({ hello: {} }), {
      ...asAgent(p),
      timeScale: 1,
      deadlineMs: 1000,
    });
    expect(result.phase).toBe('Failed');
    expect(result.nodes[0]!.message).toBe('Step exceeded its deadline (local agent)');
    expect(p.calls).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('ignores the requeue of a Succeeded reply', async () => {
    const p = await plugin([{ body: '{"node":{"phase":"Succeeded"},"requeue":"1s"}' }]);
    expect((await runWorkflow(workflow({ hello: {} }), asAgent(p))).phase).toBe('Succeeded');
    expect(p.calls).toBe(1);
  });

  it('honours retryStrategy.limit with {{retries}} and {{node.name}} of the retry parent', async () => {
    const p = await plugin(
      keyed('hello', (_b, call) =>
        call < 3 ? ok('Failed', { message: `attempt ${call}` }) : ok('Succeeded'),
      ),
    );
    const wf = workflow(
      { hello: { attempt: '{{retries}}', node: '{{node.name}}' } },
      { retryStrategy: { limit: '3' } },
    );
    const result = await runWorkflow(wf, asAgent(p));
    expect(result.phase).toBe('Succeeded');
    const attempts = p.requests.map(
      (r) =>
        (JSON.parse(r.body) as { template: { plugin: { hello: { attempt: string; node: string } } } })
          .template.plugin.hello,
    );
    expect(attempts).toEqual([
      { attempt: '0', node: result.name },
      { attempt: '1', node: result.name },
      { attempt: '2', node: result.name },
    ]);
    expect(result.nodes.filter((n) => n.type === 'Plugin').map((n) => n.name)).toEqual([
      `${result.name}(0)`,
      `${result.name}(1)`,
      `${result.name}(2)`,
    ]);
  });

  it('gives up after retryStrategy.limit retries', async () => {
    const p = await plugin(keyed('hello', () => ok('Failed', { message: 'nope' })));
    const result = await runWorkflow(workflow({ hello: {} }, { retryStrategy: { limit: 2 } }), asAgent(p));
    expect(result.phase).toBe('Failed');
    expect(p.calls).toBe(3);
  });
});

describe('local agent: walking steps and dags with Argo variables', () => {
  let p: ScriptedPlugin;
  const echo = (body: Record<string, unknown>): ScriptedReply => {
    const template = body.template as { plugin: { echo?: Record<string, string> }; name: string };
    if (!template.plugin.echo) return { body: '{}' };
    const parameters = Object.entries(template.plugin.echo).map(([name, value]) => ({ name, value }));
    return ok('Succeeded', { message: `echo ${template.name}`, outputs: { parameters } });
  };
  beforeAll(async () => {
    p = await new ScriptedPlugin(TOKEN, echo).start();
  });
  afterAll(() => p.close());
  const opts = () => ({ ...fast, plugins: [{ name: 'echo', url: p.url, token: TOKEN }] });

  it('runs sequential and parallel steps, passing outputs and substituting every variable', async () => {
    const yaml = `
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  name: steps-demo
  namespace: ci
spec:
  entrypoint: main
  arguments:
    parameters: [{ name: channel, value: "#builds" }]
  templates:
    - name: main
      steps:
        - - name: first
            template: say
            arguments: { parameters: [{ name: text, value: "hello" }] }
        - - name: left
            template: say
            arguments: { parameters: [{ name: text, value: "{{steps.first.outputs.parameters.text}} left" }] }
          - name: right
            template: say
            arguments: { parameters: [{ name: text, value: "right of {{steps.first.outputs.parameters.node}}" }] }
    - name: say
      inputs:
        parameters: [{ name: text }, { name: suffix, default: "!" }]
      outputs:
        parameters: [{ name: text, valueFrom: { supplied: {} } }]
      plugin:
        echo:
          text: "{{inputs.parameters.text}}{{inputs.parameters.suffix}}"
          node: "{{node.name}}"
          wf: "{{workflow.name}}/{{workflow.namespace}}/{{workflow.uid}}"
          channel: "{{workflow.parameters.channel}}"
`;
    const result = await runWorkflow(yaml, opts());
    expect(result.phase).toBe('Succeeded');
    const out = (name: string, p2: string) =>
      result.node(name)?.outputs?.parameters?.find((x) => x.name === p2)?.value;
    expect(out('first', 'text')).toBe('hello!');
    expect(out('first', 'node')).toBe('steps-demo[0].first');
    expect(out('left', 'text')).toBe('hello! left!');
    expect(out('right', 'text')).toBe('right of steps-demo[0].first!');
    expect(out('first', 'wf')).toBe(`steps-demo/ci/${result.uid}`);
    expect(out('first', 'channel')).toBe('#builds');
  });

  it('runs a dag in dependency order with task outputs, withItems fan-out and an exit handler', async () => {
    const wf = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { name: 'dag-demo' },
      spec: {
        entrypoint: 'main',
        onExit: 'report',
        templates: [
          {
            name: 'main',
            dag: {
              tasks: [
                { name: 'a', template: 'say', arguments: { parameters: [{ name: 'text', value: 'A' }] } },
                {
                  name: 'b',
                  template: 'say',
                  dependencies: ['a'],
                  arguments: {
                    parameters: [{ name: 'text', value: '{{tasks.a.outputs.parameters.text}}B' }],
                  },
                },
                {
                  name: 'fan',
                  template: 'say',
                  depends: 'a && b',
                  withItems: ['x', 'y', 'z'],
                  arguments: { parameters: [{ name: 'text', value: 'item-{{item}}' }] },
                },
              ],
            },
          },
          {
            name: 'say',
            inputs: { parameters: [{ name: 'text' }] },
            plugin: { echo: { text: '{{inputs.parameters.text}}' } },
          },
          { name: 'report', plugin: { echo: { status: '{{workflow.status}}' } } },
        ],
      },
    };
    const result = await runWorkflow(wf, opts());
    expect(result.phase).toBe('Succeeded');
    expect(result.node('b')?.outputs?.parameters).toEqual([{ name: 'text', value: 'AB' }]);
    expect(
      result.nodes
        .filter((n) => n.displayName.startsWith('fan('))
        .map((n) => n.outputs?.parameters?.[0].value)
        .sort(),
    ).toEqual(['item-x', 'item-y', 'item-z']);
    expect(result.node('dag-demo.onExit')?.outputs?.parameters).toEqual([
      { name: 'status', value: 'Succeeded' },
    ]);
  });

  it('reports non-plugin templates as skipped and fails on a missing input', async () => {
    const wf = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { name: 'mixed' },
      spec: {
        entrypoint: 'main',
        templates: [
          {
            name: 'main',
            steps: [[{ name: 'pod', template: 'container' }], [{ name: 'needs', template: 'needs-input' }]],
          },
          { name: 'container', container: { image: 'alpine', command: ['true'] } },
          { name: 'needs-input', inputs: { parameters: [{ name: 'x' }] }, plugin: { echo: {} } },
        ],
      },
    };
    const result = await runWorkflow(wf, opts());
    expect(result.node('pod')?.phase).toBe('Skipped');
    expect(result.node('needs')).toMatchObject({
      phase: 'Error',
      message: 'inputs.parameters.x was not supplied',
    });
    // The real controller fails such a workflow too (as an invalid spec, before any step runs).
    expect(result.phase).toBe('Failed');
  });

  it('skips a step whose when is false and stops after a failed step', async () => {
    const failing = await new ScriptedPlugin(
      TOKEN,
      keyed('boom', () => ok('Failed', { message: 'exploded' })),
    ).start();
    try {
      const wf = {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Workflow',
        metadata: { name: 'when-demo' },
        spec: {
          entrypoint: 'main',
          templates: [
            {
              name: 'main',
              steps: [
                [
                  { name: 'skipped', template: 'say', when: "'a' == 'b'" },
                  { name: 'fails', template: 'boom' },
                ],
                [{ name: 'never', template: 'say' }],
              ],
            },
            { name: 'say', plugin: { echo: { x: '1' } } },
            { name: 'boom', plugin: { boom: {} } },
          ],
        },
      };
      const result = await runWorkflow(wf, {
        ...fast,
        plugins: [
          { name: 'echo', url: p.url, token: TOKEN },
          { name: 'boom', url: failing.url, token: TOKEN },
        ],
      });
      expect(result.phase).toBe('Failed');
      expect(result.node('skipped')?.phase).toBe('Skipped');
      expect(result.node('fails')).toMatchObject({ phase: 'Failed', message: 'exploded' });
      expect(result.node('never')).toBeUndefined();
    } finally {
      await failing.close();
    }
  });

  it('rejects an invalid workflow with a message naming the field', async () => {
    await expect(
      runWorkflow(
        'apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: bad}\nspec:\n  entrypoint: 3\n  templates: [{name: main, plugin: {a: {}, b: {}}}]\n',
        opts(),
      ),
    ).rejects.toThrow(/Workflow\/bad: spec\.entrypoint: must be string/);
    await expect(
      runWorkflow(
        'apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: bad}\nspec:\n  entrypoint: main\n  templates: [{name: main, plugin: {a: {}, b: {}}}]\n',
        opts(),
      ),
    ).rejects.toThrow(/spec\.templates\[0\]\.plugin: expected exactly one key, got 2/);
  });

  it('accepts a template container without a name, as Argo does (it becomes "main")', async () => {
    const yaml =
      'apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: unnamed}\nspec:\n  entrypoint: main\n  templates: [{name: main, container: {image: alpine}}]\n';
    expect((await runWorkflow(yaml, opts())).node('unnamed')?.phase).toBe('Skipped');
  });

  it('respects 16 concurrent workers for a wide fan-out', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = await new ScriptedPlugin(TOKEN, (body) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => inFlight--, 50);
      return { ...echo(body), delayMs: 50 };
    }).start();
    try {
      const wf = {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Workflow',
        metadata: { name: 'fan' },
        spec: {
          entrypoint: 'main',
          templates: [
            { name: 'main', steps: [[{ name: 'n', template: 'say', withSequence: { count: '40' } }]] },
            { name: 'say', plugin: { echo: { i: '1' } } },
          ],
        },
      };
      const result = await runWorkflow(wf, {
        ...fast,
        rpc: { timeoutMs: 5000, backoffMs: 20, attempts: 5 },
        plugins: [{ name: 'echo', url: slow.url, token: TOKEN }],
      });
      expect(result.phase).toBe('Succeeded');
      expect(slow.calls).toBe(40);
      expect(peak).toBeLessThanOrEqual(16);
      expect(peak).toBeGreaterThan(1);
    } finally {
      await slow.close();
    }
  });
});
