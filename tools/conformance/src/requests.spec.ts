import { badConfigs, executeBody, reversedKeys, sortedKeys } from './requests.js';

const meta = {
  name: 'template-executor-x7k2p',
  namespace: 'argo',
  uid: '0b7c9a8e-3d1f-4c55-9a0e-2f4b6c1d8e90',
};

describe('executeBody: the request exactly as the agent marshals it', () => {
  it('matches Argo e2e example A byte for byte', () => {
    expect(executeBody(meta, 'hello', {}, { name: 'main' })).toBe(
      '{"workflow":{"metadata":{"name":"template-executor-x7k2p","namespace":"argo","uid":"0b7c9a8e-3d1f-4c55-9a0e-2f4b6c1d8e90"}},' +
        '"template":{"name":"main","inputs":{},"outputs":{},"metadata":{},"plugin":{"hello":{}}}}',
    );
  });

  it('keeps the plugin body key order (a json.RawMessage in Go) and escapes <, >, & like Go', () => {
    const body = executeBody(
      meta,
      'slack',
      { text: '<b> & co', channel: '#ci' },
      { name: 'slack', retryStrategy: { limit: '2' } },
    );
    expect(body).toContain(
      '"plugin":{"slack":{"text":"\\u003cb\\u003e \\u0026 co","channel":"#ci"}},"retryStrategy":{"limit":"2"}}',
    );
  });

  it('puts extra template fields in Go field order, parameters as name, default, value', () => {
    const body = executeBody(
      meta,
      'x',
      {},
      { timeout: '1h', inputs: { parameters: [{ value: 'v', name: 'p', default: 'd' }] } },
    );
    expect(body).toContain(
      '"template":{"name":"conformance","inputs":{"parameters":[{"name":"p","default":"d","value":"v"}]}',
    );
    expect(body.indexOf('"plugin"')).toBeLessThan(body.indexOf('"timeout"'));
  });
});

describe('key orders and bad bodies', () => {
  const config = { text: 'hi', channel: '#ci', nested: { b: 1, a: [{ y: 1, x: 2 }] } };

  it('sorts and reverses keys at every depth without changing values', () => {
    expect(JSON.stringify(sortedKeys(config))).toBe(
      '{"channel":"#ci","nested":{"a":[{"x":2,"y":1}],"b":1},"text":"hi"}',
    );
    expect(JSON.stringify(reversedKeys(config))).toBe(
      '{"text":"hi","nested":{"b":1,"a":[{"y":1,"x":2}]},"channel":"#ci"}',
    );
  });

  it('derives an unknown field, a wrong type for the first string field, and a non-object body', () => {
    const bad = badConfigs(config);
    expect(bad.map((b) => b.label)).toEqual([
      'an unknown field (conformanceUnknownField)',
      'a wrong type for "channel" (an object instead of a string)',
      'a body that is not an object (a string)',
    ]);
    expect(bad[0].body).toMatchObject({ ...config, conformanceUnknownField: expect.any(String) });
    expect((bad[1].body as Record<string, unknown>).channel).toEqual({ conformance: 'wrong type' });
  });

  it('without an example config: an unknown field and a non-object body', () => {
    expect(badConfigs(undefined).map((b) => b.body)).toEqual([
      { conformanceUnknownField: 'not a field of this plugin' },
      'conformance: not an object',
    ]);
  });

  it('replaces an object or list field by a string', () => {
    expect(badConfigs({ only: { a: 1 } })[1]).toMatchObject({ body: { only: 'conformance: wrong type' } });
  });
});
