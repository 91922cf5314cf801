// The plugin through the kit harness against the local Argo event endpoint (sync mode unless said otherwise).
import { emit, outputs, RECORD, startEmitterFixture, type EmitterFixture } from './support.js';
import { DEMO_ARGO_TOKEN } from '../demo/upstreams.js';

const params = (f: EmitterFixture, i = 0) =>
  Object.fromEntries(f.endpoint.workflows()[i]!.spec.arguments!.parameters.map((p) => [p.name, p.value]));

describe('workflow-event against the local event endpoint', () => {
  let f: EmitterFixture;
  afterEach(() => f.close());

  it('sends one event: payload, x- headers as lists, the execution key; outputs status, namespace, discriminator', async () => {
    f = await startEmitterFixture();
    const body = emit({
      discriminator: 'builds',
      payload: { app: 'shop', n: 1 },
      headers: { ...RECORD, 'X-List': ['a', 'b'] },
    });
    const res = await f.h.execute(body);
    expect(res.body.node).toMatchObject({
      phase: 'Succeeded',
      message: 'event sent to argo/builds: accepted (the server does not say whether a binding matched)',
    });
    expect(outputs(res.body)).toEqual({ status: 'accepted', namespace: 'argo', discriminator: 'builds' });
    const [received] = f.endpoint.received();
    expect(received).toMatchObject({
      namespace: 'argo',
      discriminator: 'builds',
      payload: { app: 'shop', n: 1 },
      status: 200,
    });
    expect(received!.metadata['x-list']).toEqual(['a', 'b']);
    expect(received!.metadata['x-argo-plugin-key']).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(params(f)).toEqual({
      payload: '{"app":"shop","n":1}',
      list: '["a","b"]',
      discriminator: 'builds',
      key: received!.metadata['x-argo-plugin-key']![0],
    });
    expect(f.endpoint.workflows()[0]!.metadata.name).toBe(
      `rec-${received!.metadata['x-argo-plugin-key']![0]!.slice(0, 16)}`,
    );
  });

  it('the defaults: the workflow namespace, an empty discriminator (trailing slash), payload {}', async () => {
    f = await startEmitterFixture();
    const res = await f.h.execute(emit({ headers: RECORD }, { workflow: { namespace: 'ci' } }));
    expect(outputs(res.body)).toEqual({ status: 'accepted', namespace: 'ci', discriminator: '' });
    expect(f.endpoint.received()).toEqual([
      expect.objectContaining({ namespace: 'ci', discriminator: '', payload: {} }),
    ]);
  });

  it('a payload given as a JSON string is sent as the object', async () => {
    f = await startEmitterFixture();
    await f.h.execute(emit({ payload: '{"a":{"b":[1,2]}}', headers: RECORD }));
    expect(f.endpoint.received()[0]!.payload).toEqual({ a: { b: [1, 2] } });
  });

  it('one POST per execution: repeated and concurrent identical calls replay the result', async () => {
    f = await startEmitterFixture();
    const body = emit({ payload: { n: 1 }, headers: RECORD });
    const replies = await Promise.all(Array.from({ length: 6 }, () => f.h.execute(body)));
    replies.push(await f.h.execute(body));
    expect(replies.every((r) => r.body.node?.phase === 'Succeeded')).toBe(true);
    expect(f.endpoint.received()).toHaveLength(1);
    await f.h.execute(emit({ payload: { n: 1 }, headers: RECORD, key: 'second' }));
    expect(f.endpoint.received()).toHaveLength(2);
  });

  it('503 (queue full) → Running with a backoff requeue; then 200 → Succeeded; exactly one event of this execution', async () => {
    f = await startEmitterFixture({ asyncDispatch: true, queueSize: 1, workers: 1 });
    f.endpoint.pauseWorkers();
    const filler = await fetch(`${f.endpoint.url}/api/v1/events/argo/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEMO_ARGO_TOKEN}` },
      body: '{}',
    });
    expect(filler.status).toBe(200);
    const body = emit({ payload: { n: 7 }, headers: RECORD });
    const first = await f.h.execute(body);
    expect(first.body.node?.phase).toBe('Running');
    expect(first.body.node?.message).toMatch(
      /→ 503: operation queue full \(the server event queue is full\); retrying in 5s \(attempt 1 of 10\)$/,
    );
    expect(first.body.requeue).toBe('5s');
    f.endpoint.resumeWorkers();
    await f.endpoint.idle();
    const second = await f.h.execute(body);
    expect(second.body.node?.phase).toBe('Succeeded');
    await f.endpoint.idle();
    const mine = f.endpoint.received().filter((e) => e.status === 200 && e.metadata['x-kind']);
    expect(mine).toHaveLength(1);
    expect(f.endpoint.workflows()).toHaveLength(1);
  });

  it('500 → Failed without a retry, saying workflows may already exist', async () => {
    f = await startEmitterFixture();
    const res = await f.h.execute(emit({ headers: { 'x-kind': 'fail' } }));
    expect(res.body.requeue).toBeUndefined();
    expect(res.body.node?.phase).toBe('Failed');
    expect(res.body.node?.message).toMatch(
      /^workflow-event: POST \/api\/v1\/events\/argo\/ → 500: failed to dispatch event: \[failed to compile workflow template parameter p expression: unexpected token .*\]\. Some bindings may already have submitted their workflows .*so the event is not sent again$/,
    );
    expect(f.endpoint.received()).toHaveLength(1);
  });

  it('401 → Failed with the token and RBAC hint', async () => {
    f = await startEmitterFixture({}, { ARGO_TOKEN: 'not-a-known-token-12345' });
    const res = await f.h.execute(emit({ headers: RECORD }));
    expect(res.body.node?.phase).toBe('Failed');
    expect(res.body.node?.message).toBe(
      'workflow-event: POST /api/v1/events/argo/ → 401: token not valid. see https://argo-workflows.readthedocs.io/en/latest/faq/. The Argo Server does not accept ARGO_TOKEN (wrong or expired token); the token needs, in the target namespace: list workfloweventbindings (else 403), and for the bindings to submit: get workflowtemplates (get clusterworkflowtemplates for clusterScope) and create workflows, e.g. the quick-start Role submit-workflow-template',
    );
  });

  it('403 (may not list bindings) → Failed with the RBAC hint', async () => {
    f = await startEmitterFixture({}, { ARGO_TOKEN: 'token-without-list-0000' });
    const res = await f.h.execute(emit({ headers: RECORD }));
    expect(res.body.node?.message).toMatch(
      /→ 403: workfloweventbindings\.argoproj\.io is forbidden: User "system:serviceaccount:argo:nolist" cannot list .*\. The token may not do this in namespace argo: the token needs/,
    );
  });

  it('501 (wrong ARGO_BASE_HREF) → Failed pointing at ARGO_BASE_HREF', async () => {
    f = await startEmitterFixture({}, { ARGO_BASE_HREF: '/argo/' });
    const res = await f.h.execute(emit({ headers: RECORD }));
    expect(res.body.node?.message).toBe(
      'workflow-event: POST /argo/api/v1/events/argo/ → 501: Not Implemented. The server has no such route: check ARGO_BASE_HREF (now "/argo/") and that ARGO_SERVER is the Argo Server',
    );
  });

  it('the server unreachable → Running (transient), then Succeeded once it is back', async () => {
    f = await startEmitterFixture();
    const port = f.endpoint.port;
    await f.endpoint.close();
    const body = emit({ headers: RECORD });
    const down = await f.h.execute(body);
    expect(down.body.node?.phase).toBe('Running');
    expect(down.body.node?.message).toMatch(
      /^argo-server: POST \/api\/v1\/events\/argo\/: ECONNREFUSED; retrying in 5s/,
    );
    const { startEventEndpoint } = await import('@app/events');
    const { BINDINGS, TOKENS } = await import('./support.js');
    const back = await startEventEndpoint({
      objects: BINDINGS,
      tokens: TOKENS,
      asyncDispatch: false,
      port,
      log: () => undefined,
    });
    try {
      expect((await f.h.execute(body)).body.node?.phase).toBe('Succeeded');
      expect(back.received()).toHaveLength(1);
    } finally {
      await back.close();
    }
  });

  it('a sidecar restart between the POST and the reply: the repeated event is refused as AlreadyExists → Succeeded, one workflow', async () => {
    f = await startEmitterFixture();
    const body = emit({ payload: { n: 1 }, headers: RECORD });
    expect((await f.h.execute(body)).body.node?.phase).toBe('Succeeded');
    await f.restart();
    const again = await f.h.execute(body);
    expect(again.body.node?.phase).toBe('Succeeded');
    expect(outputs(again.body).status).toBe('already-delivered');
    expect(again.body.node?.message).toMatch(
      /^event already delivered to argo\/: workflow rec-[0-9a-f]{16} from an earlier send/,
    );
    expect(f.endpoint.received().map((e) => e.status)).toEqual([200, 500]);
    expect(f.endpoint.workflows()).toHaveLength(1);
  });

  it('the token is never in logs, messages or outputs', async () => {
    f = await startEmitterFixture();
    await f.h.execute(emit({ headers: RECORD, payload: { echo: 'x' } }));
    await f.h.execute(emit({ headers: { 'x-kind': 'fail' } }));
    await f.h.execute(emit({ namespace: 'other', headers: RECORD }));
    const replies = [
      await f.h.execute(emit({ headers: RECORD, payload: { echo: 'x' } })),
      await f.h.execute(emit({ headers: { 'x-kind': 'fail' } })),
    ];
    const text = f.h.logText() + JSON.stringify(replies);
    expect(text).not.toContain(DEMO_ARGO_TOKEN);
    expect(text).not.toContain(DEMO_ARGO_TOKEN.slice(0, 20));
    expect(f.h.logText()).toContain('event sent');
  });
});

describe('workflow-event body and namespace checks', () => {
  let f: EmitterFixture;
  beforeAll(async () => (f = await startEmitterFixture({}, { ARGO_EVENT_NAMESPACES: '' })));
  afterAll(() => f.close());

  it.each([
    [
      { discriminator: 'a/b' },
      'discriminator: may only contain A-Z a-z 0-9 . _ ~ - (it is a URL path segment; / and : change the route)',
    ],
    [{ discriminator: '..' }, 'discriminator: cannot be . or .. (the server would rewrite the path)'],
    [{ payload: [1, 2] }, 'payload: must be an object or a JSON string of an object'],
    [
      { payload: '{oops' },
      'payload: must be an object or a JSON string of an object (this string is not valid JSON)',
    ],
    [
      { payload: `{"a":[${'{},'.repeat(20_000)}{}]}` },
      "payload: is a JSON string that holds more than 20000 values (the most a field's JSON may build)",
    ],
    [
      { headers: { 'github-event': 'push' } },
      'headers: "github-event" does not start with x-: the Argo Server only passes x- headers to bindings, so it would be dropped',
    ],
    [
      { headers: { 'x-argo-plugin-key': 'mine' } },
      'headers: "x-argo-plugin-key" is set by the plugin or the server and cannot be given',
    ],
    [
      { headers: { 'x-a': 'caf\u00e9' } },
      'headers: "x-a" must be printable ASCII (the server refuses other header values with 500)',
    ],
    [
      { namespace: 'Not_A_Namespace' },
      'namespace: must be a Kubernetes namespace name (lower-case letters, digits and -)',
    ],
    [{ discriminatr: 'x' }, 'discriminatr: unknown field (did you mean "discriminator"?)'],
  ])('%j → Failed "%s"', async (body, problem) => {
    const res = await f.h.execute(emit(body));
    expect(res.body.node).toEqual({ phase: 'Failed', message: `workflow-event: invalid config: ${problem}` });
    expect(f.endpoint.received()).toEqual([]);
  });

  it('a namespace outside the allowlist (default: the workflow namespace only) → Failed, nothing sent', async () => {
    const res = await f.h.execute(emit({ namespace: 'ci' }));
    expect(res.body.node).toEqual({
      phase: 'Failed',
      message:
        'workflow-event: invalid config: namespace: events may not be sent to "ci"; the administrator allows only the workflow\'s own namespace (argo) (ARGO_EVENT_NAMESPACES)',
    });
    expect(f.endpoint.received()).toEqual([]);
  });
});
