// Conformance cases 1–6, 24–26, 28–30 (Argo Server v4.1's event endpoint, docs/events.md): what a matching binding creates.
import { binding, endpoint, RAND5, send, submitWft } from './support.js';

const EVENT = '/api/v1/events/argo/';
const BODY = { foo: { bar: 'baz', numeric: 8675309, bool: true, pr: 112 }, list: ['one', 'two'] };
const params = (wf: { spec: { arguments?: { parameters: Array<{ name: string; value: string }> } } }) =>
  Object.fromEntries((wf.spec.arguments?.parameters ?? []).map((p) => [p.name, p.value]));

describe('conformance: submitted workflows (sync mode)', () => {
  it('1 basic: 200 {}, one wf my-wft-RAND5 with the template, binding and creator labels, no arguments', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft() })]);
    const res = await send(ep.url, EVENT, { body: {} });
    expect([res.status, res.text, res.headers['content-type']]).toEqual([200, '{}', 'application/json']);
    const [wf, ...more] = ep.workflows();
    expect(more).toEqual([]);
    expect(wf!.metadata.name).toMatch(new RegExp(`^my-wft-${RAND5}$`));
    expect(wf!.metadata.generateName).toBe('my-wft-');
    expect(wf!.metadata.namespace).toBe('argo');
    expect(wf!.metadata.labels).toEqual({
      'workflows.argoproj.io/workflow-template': 'my-wft',
      'workflows.argoproj.io/workflow-event-binding': 'b1',
      'workflows.argoproj.io/creator': 'my-sub',
    });
    expect(wf!.spec).toEqual({ workflowTemplateRef: { name: 'my-wft' } });
    expect(ep.events()).toEqual([]);
  });

  it('2 cluster template: cluster label, clusterScope, the literal parameter', async () => {
    const submit = {
      workflowTemplateRef: { name: 'my-cwft', clusterScope: true },
      arguments: { parameters: [{ name: 'my-param', valueFrom: { event: '"bar"' } }] },
    };
    const ep = await endpoint([binding('b1', { selector: 'true', submit })]);
    expect((await send(ep.url, EVENT, { body: {} })).status).toBe(200);
    const [wf] = ep.workflows();
    expect(wf!.metadata.name).toMatch(new RegExp(`^my-cwft-${RAND5}$`));
    expect(wf!.metadata.labels['workflows.argoproj.io/cluster-workflow-template']).toBe('my-cwft');
    expect(wf!.metadata.labels['workflows.argoproj.io/workflow-template']).toBeUndefined();
    expect(wf!.spec).toEqual({
      workflowTemplateRef: { name: 'my-cwft', clusterScope: true },
      arguments: { parameters: [{ name: 'my-param', value: 'bar' }] },
    });
  });

  it('3 no match: 200, no wf, no Event', async () => {
    const ep = await endpoint([binding('b1', { selector: 'false', submit: submitWft() })]);
    expect((await send(ep.url, EVENT, { body: {} })).status).toBe(200);
    expect([ep.workflows(), ep.events()]).toEqual([[], []]);
  });

  it('4 nested payload: an object parameter is compact JSON; a non-matching body creates nothing', async () => {
    const ep = await endpoint([
      binding('b1', {
        selector: "payload.foo.bar == 'baz'",
        submit: submitWft({ 'my-param': 'payload.foo' }),
      }),
    ]);
    await send(ep.url, EVENT, { body: '{"foo":{"bar":"baz"},"formatted":"My%Test%"}' });
    expect(ep.workflows().map(params)).toEqual([{ 'my-param': '{"bar":"baz"}' }]);
    expect((await send(ep.url, EVENT, { body: '{"foo":{"bar":"qux"}}' })).status).toBe(200);
    expect(ep.workflows()).toHaveLength(1);
  });

  it('5 a string parameter with % is kept as is', async () => {
    const ep = await endpoint([
      binding('b1', { selector: 'true', submit: submitWft({ p: 'payload.formatted' }) }),
    ]);
    await send(ep.url, EVENT, { body: '{"foo":{"bar":"baz"},"formatted":"My%Test%"}' });
    expect(ep.workflows().map(params)).toEqual([{ p: 'My%Test%' }]);
  });

  it('6 parameter conversions: numbers, bools, lists, sorted maps, null, escaped quotes, ints', async () => {
    const exprs = [
      'payload.s',
      'payload.n',
      'payload.f',
      'payload.b',
      'payload.l',
      'payload.m',
      'payload.nothing',
      'payload.q',
      '1+2',
    ];
    const submit = submitWft(Object.fromEntries(exprs.map((e, i) => [`p${i}`, e])));
    const ep = await endpoint([binding('b1', { selector: 'true', submit })]);
    await send(ep.url, EVENT, {
      body: '{"s":"x","n":8675309,"f":1.5,"b":true,"l":["one","two"],"m":{"z":1,"a":2},"q":"a\\"b"}',
    });
    expect(Object.values(params(ep.workflows()[0]!))).toEqual([
      'x',
      '8675309',
      '1.5',
      'true',
      '["one","two"]',
      '{"a":2,"z":1}',
      'null',
      'a\\"b',
      '3',
    ]);
  });

  it('24 a namespace without bindings → 200; a matching binding without submit → 200, no wf, no Event', async () => {
    const ep = await endpoint([binding('nosubmit', { selector: 'true' })]);
    expect((await send(ep.url, '/api/v1/events/empty-ns/', { body: {} })).status).toBe(200);
    expect((await send(ep.url, EVENT, { body: {} })).status).toBe(200);
    expect([ep.workflows(), ep.events()]).toEqual([[], []]);
  });

  it('25 name, labels and annotations from expressions', async () => {
    const ep = await endpoint([
      binding('fixed', { selector: 'true', submit: submitWft({}, { metadata: { name: '"my-wfeb-2"' } }) }),
      binding('named', {
        selector: 'true',
        submit: submitWft(
          {},
          {
            metadata: {
              name: '"my-wfeb-" + payload.foo.bar',
              // The facts quote Argo's Go test: the Go literal "\"someValue\"" is the expression "someValue".
              labels: { aLabel: 'payload.list[0]', literal: '"someValue"' },
              annotations: { anAnnotation: 'payload.list[1]' },
            },
          },
        ),
      }),
    ]);
    expect((await send(ep.url, EVENT, { body: BODY })).text).toBe('{}');
    const [fixed, named] = ep.workflows();
    expect(fixed!.metadata.name).toBe('my-wfeb-2');
    expect(named!.metadata.name).toBe('my-wfeb-baz');
    expect(named!.metadata.labels).toMatchObject({ aLabel: 'one', literal: 'someValue' });
    expect(named!.metadata.annotations).toEqual({ anAnnotation: 'two' });
  });

  it('26 a generateName expression gets the server suffix', async () => {
    const generateName = '"my-wft-pr-"+sprig.toString(payload.foo.pr)+"-"';
    const ep = await endpoint([
      binding('b1', { selector: 'true', submit: submitWft({}, { metadata: { generateName } }) }),
    ]);
    await send(ep.url, EVENT, { body: BODY });
    const [wf] = ep.workflows();
    expect(wf!.metadata.name).toMatch(new RegExp(`^my-wft-pr-112-${RAND5}$`));
    expect(wf!.metadata.generateName).toBe('my-wft-pr-112-');
  });

  it('28 the template workflowMetadata is copied; a binding label overrides one key only', async () => {
    const ep = await endpoint([
      binding('a', { selector: 'true', submit: { workflowTemplateRef: { name: 'meta-wft' } } }),
      binding('b', {
        selector: 'true',
        submit: {
          workflowTemplateRef: { name: 'meta-wft' },
          metadata: { labels: { env: '"from-binding"' } },
        },
      }),
    ]);
    await send(ep.url, EVENT, { body: {} });
    const [a, b] = ep.workflows();
    expect(a!.metadata.labels).toMatchObject({ env: 'from-template', 'template-only': 'yes' });
    expect(a!.metadata.annotations).toEqual({ note: 'from-template' });
    expect(b!.metadata.labels).toMatchObject({ env: 'from-binding', 'template-only': 'yes' });
    expect(b!.metadata.annotations).toEqual({ note: 'from-template' });
  });

  it('29 the server labels win over binding labels', async () => {
    const labels = {
      'workflows.argoproj.io/workflow-event-binding': '"x"',
      'workflows.argoproj.io/creator': '"x"',
      'workflows.argoproj.io/action': '"resubmit"',
    };
    const ep = await endpoint([
      binding('b1', { selector: 'true', submit: submitWft({}, { metadata: { labels } }) }),
    ]);
    await send(ep.url, EVENT, { body: {} });
    const [wf] = ep.workflows();
    expect(wf!.metadata.labels['workflows.argoproj.io/workflow-event-binding']).toBe('b1');
    expect(wf!.metadata.labels['workflows.argoproj.io/creator']).toBe('my-sub');
    expect(wf!.metadata.labels['workflows.argoproj.io/action']).toBeUndefined();
  });

  it('29 without a subject claim the creator label is removed; long subjects are made DNS-friendly', async () => {
    const labels = { 'workflows.argoproj.io/creator': '"x"' };
    const tokens = {
      tokens: [
        { token: 'anonymous-token', permissions: ['*'] },
        {
          token: 'sa-token-000000',
          subject: 'system:serviceaccount:argo:github.com',
          email: 'ci@example.com',
          permissions: ['*'],
        },
      ],
      webhookClients: new Map(),
    };
    const ep = await endpoint(
      [binding('b1', { selector: 'true', submit: submitWft({}, { metadata: { labels } }) })],
      {
        tokens,
      },
    );
    await send(ep.url, EVENT, { body: {}, token: 'anonymous-token' });
    await send(ep.url, EVENT, { body: {}, token: 'sa-token-000000' });
    const [anonymous, sa] = ep.workflows();
    expect(anonymous!.metadata.labels['workflows.argoproj.io/creator']).toBeUndefined();
    expect(sa!.metadata.labels).toMatchObject({
      'workflows.argoproj.io/creator': 'system-serviceaccount-argo-github.com',
      'workflows.argoproj.io/creator-email': 'ci.at.example.com',
    });
  });

  // The workflow comes from a template, so it has a generateName beside its name (Argo v4.1's
  // NewWorkflowFromWorkflowTemplate): the API server words the clash as a generated-name conflict.
  it('30 a name clash: the first event 200, the second 500 "already exists"', async () => {
    const ep = await endpoint([
      binding('b1', { selector: 'true', submit: submitWft({}, { metadata: { name: '"fixed"' } }) }),
    ]);
    expect((await send(ep.url, EVENT, { body: {} })).status).toBe(200);
    const second = await send(ep.url, EVENT, { body: {} });
    expect(second.status).toBe(500);
    expect(second.json()).toEqual({
      code: 13,
      message:
        'failed to dispatch event: [failed to create workflow: workflows.argoproj.io "fixed" already exists, the server was not able to generate a unique name for the object]',
    });
    expect(ep.workflows()).toHaveLength(1);
    expect(ep.events().map((e) => e.message)).toEqual([
      'failed to dispatch event: failed to create workflow: workflows.argoproj.io "fixed" already exists, the server was not able to generate a unique name for the object',
    ]);
  });
});
