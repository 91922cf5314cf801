// Conformance cases 15–23, 33 and 34 (Argo Server v4.1's event endpoint, docs/events.md): the HTTP surface, headers, bodies and auth.
import { binding, endpoint, send, submitWft, type SendOptions } from './support.js';

const EVENT = '/api/v1/events/argo/';

/** Bindings named after their selectors' positions; returns the names of those that created a wf. */
async function matches(selectors: string[], options: SendOptions, path = EVENT): Promise<boolean[]> {
  const ep = await endpoint(
    selectors.map((selector, i) => binding(`s${i}`, { selector, submit: submitWft() })),
  );
  const res = await send(ep.url, path, options);
  expect(res.text).toBe('{}');
  const created = new Set(
    ep.workflows().map((w) => w.metadata.labels['workflows.argoproj.io/workflow-event-binding']),
  );
  return selectors.map((_, i) => created.has(`s${i}`));
}

describe('conformance: headers', () => {
  it('15 header match: the wf with X-Argo-E2E: true, nothing without the header', async () => {
    const ep = await endpoint([
      binding('b1', {
        selector: 'payload.appellation != "" && metadata["x-argo-e2e"] == ["true"]',
        submit: submitWft({ appellation: 'payload.appellation' }),
      }),
    ]);
    const body = { appellation: 'Mr Chips' };
    expect((await send(ep.url, EVENT, { body, headers: { 'X-Argo-E2E': 'true' } })).status).toBe(200);
    expect(ep.workflows()[0]!.spec.arguments!.parameters).toEqual([
      { name: 'appellation', value: 'Mr Chips' },
    ]);
    expect((await send(ep.url, EVENT, { body })).status).toBe(200);
    expect(ep.workflows()).toHaveLength(1);
  });

  it('16 only x- headers, lower-cased, as lists', async () => {
    const selectors = [
      'metadata["x-valid"] == ["true"]',
      'metadata["ignored"] == nil',
      'metadata["authorization"] == nil',
      'metadata["X-Valid"] == nil',
      'metadata["x-valid"] == "true"',
      'metadata["content-type"] == nil && metadata["user-agent"] == nil',
    ];
    const headers = { 'X-Valid': 'true', Ignored: 'false', 'Content-Type': 'text/plain' };
    expect(await matches(selectors, { body: {}, headers })).toEqual([true, true, true, true, false, true]);
  });

  it('16 a header sent twice is a two-element list; commas never split a value', async () => {
    const selectors = [
      'metadata["x-valid"] == ["a","b"]',
      '"a" in metadata["x-valid"]',
      'metadata["x-multi"] == ["a, b"]',
    ];
    const headers = { 'X-Valid': ['a', 'b'], 'X-Multi': 'a, b' };
    expect(await matches(selectors, { body: {}, headers })).toEqual([true, true, true]);
  });

  it('17 the gateway adds x-forwarded-for (peer IP) and x-forwarded-host (Host); client values are doubled', async () => {
    const ep = await endpoint([
      binding('b1', {
        selector: 'len(metadata["x-forwarded-for"]) == 1',
        submit: submitWft({ host: 'metadata["x-forwarded-host"]', for: 'metadata["x-forwarded-for"]' }),
      }),
      binding('b2', {
        selector: 'len(metadata["x-forwarded-for"]) == 2',
        submit: submitWft({ host: 'metadata["x-forwarded-host"]', for: 'metadata["x-forwarded-for"]' }),
      }),
    ]);
    await send(ep.url, EVENT, { body: {} });
    await send(ep.url, EVENT, {
      body: {},
      headers: { 'X-Forwarded-Host': 'h', 'X-Forwarded-For': '1.2.3.4' },
    });
    const [first, second] = ep
      .workflows()
      .map((w) => Object.fromEntries(w.spec.arguments!.parameters.map((p) => [p.name, p.value])));
    expect(first).toEqual({ host: `["127.0.0.1:${ep.port}"]`, for: '["127.0.0.1"]' });
    expect(second).toEqual({ host: '["h","h"]', for: '["1.2.3.4","1.2.3.4, 127.0.0.1"]' });
  });

  it('a header value that is not printable ASCII: 500 like grpc-go metadata validation', async () => {
    const ep = await endpoint([]);
    const res = await send(ep.url, EVENT, { body: {}, headers: { 'X-Bad': 'caf\u00e9' } });
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({
      code: 13,
      message: 'header key "x-bad" contains value with non-printable ASCII characters',
    });
  });
});

describe('conformance: paths and methods', () => {
  it('18 the discriminator comes from the path; namespace is in the environment', async () => {
    const selectors = ['discriminator == "my-discriminator"', 'namespace == "argo"'];
    expect(await matches(selectors, { body: {} }, '/api/v1/events/argo/my-discriminator')).toEqual([
      true,
      true,
    ]);
    expect(await matches(selectors, { body: {} }, EVENT)).toEqual([false, true]);
  });

  it.each([
    ['POST', '/api/v1/events/argo'],
    ['POST', '/api/v1/events/argo/a/b'],
    ['GET', '/api/v1/events/argo/'],
    ['PUT', '/api/v1/events/argo/x'],
    ['POST', '/api/v1/events/argo/a:b'],
    ['POST', '/api/v1/events/argo/a%3Ab'],
    ['POST', '/api/v1/events/argo/a%2Fb'],
    ['POST', '/api/v1/other'],
    ['POST', '/'],
  ])('19 %s %s → 501 {"code":12,"message":"Not Implemented"}', async (method, path) => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft() })]);
    const res = await send(ep.url, path, { method, body: method === 'GET' ? undefined : {} });
    expect([res.status, res.text]).toEqual([501, '{"code":12,"message":"Not Implemented"}']);
    expect(ep.workflows()).toEqual([]);
  });

  it('an empty namespace is cleaned by Go (301 to the cleaned path)', async () => {
    const ep = await endpoint([]);
    const res = await send(ep.url, '/api/v1/events//x', { body: {} });
    expect([res.status, res.headers.location]).toEqual([301, '/api/v1/events/x']);
  });
});

describe('conformance: bodies', () => {
  it.each([
    ['{', 'unexpected EOF'],
    ['!', "invalid character '!' looking for beginning of value"],
    ['{"a":1,}', `invalid character '}' looking for beginning of object key string`],
    ['[1 2]', "invalid character '2' after array element"],
  ])('20 body %s → 400 {"code":3,"message":"%s"}', async (body, message) => {
    const ep = await endpoint([]);
    const res = await send(ep.url, EVENT, { body });
    expect([res.status, res.json()]).toEqual([400, { code: 3, message }]);
  });

  it('20 no body: payload == nil matches, and payload.x is a compile error (500)', async () => {
    expect(await matches(['payload == nil'], {})).toEqual([true]);
    const ep = await endpoint([binding('b1', { selector: 'payload.x == 1', submit: submitWft() })]);
    const res = await send(ep.url, EVENT, {});
    expect(res.status).toBe(500);
    expect((res.json() as { message: string }).message).toContain('type nil has no field x');
  });

  it('20 arrays, strings and trailing bytes; any Content-Type', async () => {
    expect(await matches(['payload[1] == 2'], { body: '[1,2]' })).toEqual([true]);
    expect(
      await matches(['payload == "hi"'], {
        body: '"hi"',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    ).toEqual([true]);
    expect(await matches(['payload.a == 1'], { body: '{"a":1} trailing' })).toEqual([true]);
    expect(await matches(['payload == nil'], { body: 'null' })).toEqual([true]);
  });

  it('21 a missing field is nil: != "" matches and the parameter is null; fetching from nil fails; ?. does not', async () => {
    const ep = await endpoint([
      binding('b1', { selector: 'payload.message != ""', submit: submitWft({ p: 'payload.message' }) }),
    ]);
    await send(ep.url, EVENT, { body: {} });
    expect(ep.workflows()[0]!.spec.arguments!.parameters).toEqual([{ name: 'p', value: 'null' }]);
    expect(await matches(['payload.a?.b == nil'], { body: {} })).toEqual([true]);
    const failing = await endpoint([binding('b1', { selector: 'payload.a.b == 1', submit: submitWft() })]);
    const res = await send(failing.url, EVENT, { body: {} });
    expect(res.status).toBe(500);
    expect((res.json() as { message: string }).message).toContain('cannot fetch b from <nil>');
  });

  it('22 numbers: JSON numbers equal int literals, lists compare element-wise, string + number fails', async () => {
    const body = { n: 1, ids: [1, 2] };
    expect(await matches(['payload.n == 1', 'payload.ids == [1,2]'], { body })).toEqual([true, true]);
    const ep = await endpoint([binding('b1', { selector: '"x" + payload.n == "x1"', submit: submitWft() })]);
    const res = await send(ep.url, EVENT, { body });
    expect(res.status).toBe(500);
    expect((res.json() as { message: string }).message).toContain('invalid operation: string + float64');
  });

  it('23 unknown names: event (the docs form) and sprig in a selector; toJSON is a builtin', async () => {
    for (const selector of ['event.payload.message == "x"', 'sprig.toString(1) == "1"']) {
      const ep = await endpoint([binding('b1', { selector, submit: submitWft() })]);
      const res = await send(ep.url, EVENT, { body: {} });
      expect(res.status).toBe(500);
      expect((res.json() as { message: string }).message).toContain(`unknown name ${selector.split('.')[0]}`);
    }
    expect(await matches(['toJSON(1) == "1"'], { body: {} })).toEqual([true]);
  });

  it('33 sync mode, no bindings: two events in a row (with {} and with no body) are both 200', async () => {
    const ep = await endpoint([]);
    expect((await send(ep.url, EVENT, { body: {} })).status).toBe(200);
    expect((await send(ep.url, EVENT, {})).status).toBe(200);
  });
});

describe('conformance: 34 authorization', () => {
  it('no Authorization and no webhook clients: 403 {"message": "failed to process webhook request"}', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft() })]);
    const res = await send(ep.url, EVENT, { body: {}, token: null });
    expect([res.status, res.text]).toEqual([403, '{"message": "failed to process webhook request"}']);
    expect(ep.workflows()).toEqual([]);
  });

  it('webhook clients present but no signature matches: 401; a valid GitHub signature acts as the ServiceAccount', async () => {
    const { createHmac } = await import('node:crypto');
    const tokens = {
      tokens: [
        { token: 'github-sa-token', subject: 'system:serviceaccount:argo:github', permissions: ['*'] },
      ],
      webhookClients: new Map([['argo', new Map([['github', { type: 'github' as const, secret: 'shhh' }]])]]),
    };
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft() })], { tokens });
    const body = '{"ref":"main"}';
    const unsigned = await send(ep.url, EVENT, { body, token: null });
    expect([unsigned.status, (unsigned.json() as { code: number }).code]).toEqual([401, 16]);
    const signature = `sha256=${createHmac('sha256', 'shhh').update(body).digest('hex')}`;
    const signed = await send(ep.url, EVENT, {
      body,
      token: null,
      headers: { 'X-Hub-Signature-256': signature },
    });
    expect(signed.status).toBe(200);
    expect(ep.workflows()[0]!.metadata.labels['workflows.argoproj.io/creator']).toBe(
      'system-serviceaccount-argo-github',
    );
  });

  it('a bad bearer token, a lower-case scheme or a bare token: 401 {"code":16,...}; Basic too', async () => {
    const ep = await endpoint([]);
    for (const authorization of ['Bearer wrong', 'bearer my-token-0123456789', 'my-token-0123456789']) {
      const res = await send(ep.url, EVENT, {
        body: {},
        token: null,
        headers: { Authorization: authorization },
      });
      expect(res.status).toBe(401);
      expect(res.json()).toEqual({
        code: 16,
        message: 'token not valid. see https://argo-workflows.readthedocs.io/en/latest/faq/',
      });
    }
    const basic = await send(ep.url, EVENT, {
      body: {},
      token: null,
      headers: { Authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.status).toBe(401);
  });

  it('a caller that may not list workfloweventbindings: 403 {"code":7,...} with the Kubernetes message', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft() })]);
    const res = await send(ep.url, EVENT, { body: {}, token: 'cannot-list-000' });
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({
      code: 7,
      message:
        'workfloweventbindings.argoproj.io is forbidden: User "system:serviceaccount:argo:nolist" cannot list resource "workfloweventbindings" in API group "argoproj.io" in the namespace "argo"',
    });
    expect(ep.workflows()).toEqual([]);
  });

  it('the token is checked before the body is read (unlike the gateway, which answers an invalid body 400 first)', async () => {
    const ep = await endpoint([]);
    expect((await send(ep.url, EVENT, { body: '!', token: 'wrong' })).status).toBe(401);
    expect((await send(ep.url, EVENT, { body: '!' })).status).toBe(400);
  });
});
