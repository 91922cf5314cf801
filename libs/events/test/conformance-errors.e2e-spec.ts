// Conformance cases 7–14, 27 and 35 (Argo Server v4.1's event endpoint, docs/events.md): binding errors (sync mode: 500 + Warning Events).
import { binding, endpoint, FIXTURE_TEMPLATES, send, submitWft } from './support.js';

const EVENT = '/api/v1/events/argo/';
const BODY = { foo: { bar: 'baz', numeric: 8675309, bool: true, pr: 112 }, list: ['one', 'two'] };

/** One event against these bindings: the reply and the recorded Events. */
async function dispatch(bindings: Array<Record<string, unknown>>, body: unknown = {}, options = {}) {
  const ep = await endpoint(bindings, options);
  const res = await send(ep.url, EVENT, { body });
  return {
    ep,
    status: res.status,
    reply: res.json() as { code?: number; message?: string },
    events: ep.events(),
  };
}

describe('conformance: binding errors (sync mode)', () => {
  it('7 empty selector: 500, no wf, an Event on the binding with "unexpected token EOF"', async () => {
    const { ep, status, reply, events } = await dispatch([
      binding('malformed', { selector: '', submit: submitWft() }),
    ]);
    expect(status).toBe(500);
    expect(reply.code).toBe(13);
    expect(reply.message).toMatch(
      /^failed to dispatch event: \[failed to evaluate workflow template expression: unexpected token EOF/,
    );
    expect(ep.workflows()).toEqual([]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'Warning',
      reason: 'WorkflowEventBindingError',
      involvedObject: { kind: 'WorkflowEventBinding', namespace: 'argo', name: 'malformed' },
    });
    expect(events[0]!.message).toMatch(
      /^failed to dispatch event: failed to evaluate workflow template expression: unexpected token EOF/,
    );
    expect(ep.logs).toContainEqual(expect.objectContaining({ level: 'warn', binding: 'argo/malformed' }));
  });

  it('8 a syntax error in the selector: 500 mentioning "unexpected token"', async () => {
    const { status, events } = await dispatch([
      binding('b1', { selector: 'garbage!!!!!!', submit: submitWft() }),
    ]);
    expect(status).toBe(500);
    expect(events[0]!.message).toContain('failed to evaluate workflow template expression: unexpected token');
  });

  it.each([
    ['"garbage"', "unable to cast expression result 'garbage' to bool"],
    ['payload.s', "unable to cast expression result 'x' to bool"],
    ['nil', "unable to cast expression result '%!s(<nil>)' to bool"],
    ['payload.n', "unable to cast expression result '%!s(float64=1)' to bool"],
  ])('9 a non-bool selector %s: 500 "%s"', async (selector, message) => {
    const { status, reply } = await dispatch([binding('b1', { selector, submit: submitWft() })], {
      s: 'x',
      n: 1,
    });
    expect(status).toBe(500);
    expect(reply.message).toBe(
      `failed to dispatch event: [failed to evaluate workflow template expression: ${message}]`,
    );
  });

  it('10 a bad parameter expression: 500, no wf for that binding', async () => {
    const { ep, status, events } = await dispatch([
      binding('b1', { selector: 'true', submit: submitWft({ 'my-param': 'rubbish!!!' }) }),
    ]);
    expect(status).toBe(500);
    expect(events[0]!.message).toMatch(
      /^failed to dispatch event: failed to compile workflow template parameter my-param expression: unexpected token/,
    );
    expect(ep.workflows()).toEqual([]);
  });

  it('10 a parameter that fails at run time names the parameter in quotes', async () => {
    const { events } = await dispatch([
      binding('b1', { selector: 'true', submit: submitWft({ p: 'payload.a.b' }) }),
    ]);
    expect(events[0]!.message).toMatch(
      /^failed to dispatch event: failed to evaluate workflow template parameter "p" expression: cannot fetch b from <nil>/,
    );
  });

  it('11 a parameter without valueFrom: 500 "valueFrom is nil", no wf', async () => {
    const submit = {
      workflowTemplateRef: { name: 'my-wft' },
      arguments: { parameters: [{ name: 'p', value: 'x' }] },
    };
    const { ep, reply } = await dispatch([binding('b1', { selector: 'true', submit })]);
    expect(reply.message).toBe(
      'failed to dispatch event: [malformed workflow template parameter "p": valueFrom is nil]',
    );
    expect(ep.workflows()).toEqual([]);
  });

  it('12 a missing template: 500 with the Kubernetes NotFound message', async () => {
    const submit = { workflowTemplateRef: { name: 'not-found' } };
    const { reply } = await dispatch([binding('b1', { selector: 'true', submit })]);
    expect(reply.message).toBe(
      'failed to dispatch event: [failed to get workflow template: workflowtemplates.argoproj.io "not-found" not found]',
    );
    const cluster = await dispatch([
      binding('b1', {
        selector: 'true',
        submit: { workflowTemplateRef: { name: 'nope', clusterScope: true } },
      }),
    ]);
    expect(cluster.reply.message).toContain('clusterworkflowtemplates.argoproj.io "nope" not found');
  });

  describe('13 instance ID my-instanceid', () => {
    const INSTANCE = { 'workflows.argoproj.io/controller-instanceid': 'my-instanceid' };
    const wft3 = { ...FIXTURE_TEMPLATES[0], metadata: { name: 'my-wft-3', namespace: 'argo' } };
    const labelled = {
      ...FIXTURE_TEMPLATES[0],
      metadata: { name: 'labelled-wft', namespace: 'argo', labels: INSTANCE },
    };

    it('a labelled binding and an unlabelled template: 500 "not managed by the current Argo Server"', async () => {
      const b = binding('b1', {
        selector: 'true',
        labels: INSTANCE,
        submit: { workflowTemplateRef: { name: 'my-wft-3' } },
      });
      const { reply } = await dispatch([b, wft3], {}, { instanceId: 'my-instanceid' });
      expect(reply.message).toBe(
        "failed to dispatch event: [failed to validate workflow template instanceid: 'my-wft-3' is not managed by the current Argo Server]",
      );
    });

    it('labelled binding and template work and the wf gets the label; unlabelled bindings are not listed', async () => {
      const ok = binding('ok', {
        selector: 'true',
        labels: INSTANCE,
        submit: { workflowTemplateRef: { name: 'labelled-wft' } },
      });
      const ignored = binding('ignored', { selector: 'garbage!!!', submit: submitWft() });
      const { ep, status, events } = await dispatch(
        [ok, ignored, labelled],
        {},
        { instanceId: 'my-instanceid' },
      );
      expect([status, events]).toEqual([200, []]);
      expect(
        ep.workflows().map((w) => w.metadata.labels['workflows.argoproj.io/controller-instanceid']),
      ).toEqual(['my-instanceid']);
    });

    it('without an instance ID, labelled bindings are not listed and labelled templates are refused', async () => {
      const labelledBinding = binding('other', { selector: 'garbage!!!', labels: INSTANCE });
      const toLabelled = binding('b1', {
        selector: 'true',
        submit: { workflowTemplateRef: { name: 'labelled-wft' } },
      });
      const { reply } = await dispatch([labelledBinding, toLabelled, labelled]);
      expect(reply.message).toBe(
        "failed to dispatch event: [failed to validate workflow template instanceid: 'labelled-wft' is not managed by the current Argo Server]",
      );
    });
  });

  it('14 partial failure: 500, the wf of the good binding exists, exactly one Event (on the bad one)', async () => {
    const { ep, status, events } = await dispatch([
      binding('a', { selector: 'true', submit: submitWft() }),
      binding('b', { selector: 'garbage!!!', submit: submitWft() }),
    ]);
    expect(status).toBe(500);
    expect(
      ep.workflows().map((w) => w.metadata.labels['workflows.argoproj.io/workflow-event-binding']),
    ).toEqual(['a']);
    expect(events.map((e) => e.involvedObject.name)).toEqual(['b']);
  });

  it.each([
    ['payload.foo.numeric', 'float64'],
    ['payload.foo.bool', 'bool'],
    ['payload.foo', 'map[string]interface {}'],
    ['payload.list', '[]interface {}'],
    ['payload.nothing', '<nil>'],
    ['len(payload.list)', 'int'],
  ])('27 name %s: 500, no wf, "must evaluate to a string, not a %s"', async (name, type) => {
    const { ep, reply } = await dispatch(
      [binding('b1', { selector: 'true', submit: submitWft({}, { metadata: { name } }) })],
      BODY,
    );
    expect(reply.message).toBe(
      `failed to dispatch event: [workflow name expression must evaluate to a string, not a ${type}]`,
    );
    expect(ep.workflows()).toEqual([]);
  });

  it.each([
    [{ name: 'rubbish!!!' }, 'failed to evaluate workflow name expression: unexpected token'],
    [{ generateName: 'rubbish!!!' }, 'failed to evaluate workflow generateName expression: unexpected token'],
    [{ labels: { k: 'rubbish!!!' } }, 'failed to evaluate workflow label "k" expression: unexpected token'],
    [
      { annotations: { k: 'rubbish!!!' } },
      'failed to evaluate workflow annotation "k" expression: unexpected token',
    ],
    [
      { labels: { k: 'payload.a.b' } },
      'failed to evaluate workflow label "k" expression: cannot fetch b from <nil>',
    ],
  ])('27 metadata %j: %s', async (metadata, message) => {
    const { ep, reply } = await dispatch([
      binding('b1', { selector: 'true', submit: submitWft({}, { metadata }) }),
    ]);
    expect(reply.message).toContain(`failed to dispatch event: [${message}`);
    expect(ep.workflows()).toEqual([]);
  });

  it("27 a name that breaks Kubernetes' naming rules fails at create (422 Invalid)", async () => {
    const { reply } = await dispatch([
      binding('b1', { selector: 'true', submit: submitWft({}, { metadata: { name: '"My_Name"' } }) }),
    ]);
    expect(reply.message).toContain(
      'failed to create workflow: Workflow.argoproj.io "My_Name" is invalid: metadata.name: Invalid value: "My_Name": a lowercase RFC 1123 subdomain',
    );
  });

  it('34 a caller without create workflows: 500 (a binding error with the Forbidden message)', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft() })]);
    const res = await send(ep.url, EVENT, { body: {}, token: 'cannot-create-00' });
    expect(res.status).toBe(500);
    expect((res.json() as { message: string }).message).toBe(
      'failed to dispatch event: [failed to create workflow: workflows.argoproj.io is forbidden: User "system:serviceaccount:argo:nocreate" cannot create resource "workflows" in API group "argoproj.io" in the namespace "argo"]',
    );
  });

  it('35 ordering: bindings are dispatched in name order (b-1 before b-2) in the Events and the 500', async () => {
    const { reply, events } = await dispatch([
      binding('b-2', { selector: '"two"', submit: submitWft() }),
      binding('b-1', { selector: '"one"', submit: submitWft() }),
    ]);
    expect(events.map((e) => e.involvedObject.name)).toEqual(['b-1', 'b-2']);
    expect(reply.message).toBe(
      "failed to dispatch event: [failed to evaluate workflow template expression: unable to cast expression result 'one' to bool failed to evaluate workflow template expression: unable to cast expression result 'two' to bool]",
    );
  });
});
