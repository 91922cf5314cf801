import { StandInServer } from '@app/local-agent';
import { FaultProxy } from './fault-proxy.js';
import { sendRaw, type RawOutcome } from './raw-http.js';
import { replyProblem } from './reply-check.js';
import { SecretSweep } from './secret-sweep.js';

/** The suites' own checks must be able to fail: each is shown a bad case here. */
const reply = (status: number, text: string): RawOutcome => ({ kind: 'reply', status, text, ms: 1 });

describe('replyProblem', () => {
  it.each([
    [400, 'invalid JSON'],
    [403, ''],
    [404, 'not found'],
    [413, 'too large'],
    [200, '{}'],
    [200, 'null'],
    [200, '{"node":{"phase":"Succeeded","message":"ok"}}'],
    [200, '{"node":{"phase":"Failed","message":"no"}}'],
    [200, '{"node":{"phase":"Running"},"requeue":"30s"}'],
    [200, '{"node":{"phase":"Pending"},"requeue":"1m30s"}'],
  ])('accepts %s %s', (status, text) => expect(replyProblem(reply(status, text))).toBeUndefined());

  it.each([
    [500, 'boom', /status 500/],
    [201, '{}', /status 201/],
    [503, 'draining', /status 503/],
    [200, '', /cannot decode \(EOF\)/],
    [200, '{"node":{"phase":"Running"}', /cannot decode \(unexpected EOF\)/],
    [200, '{"node":{"phase":"Running"}}', /without a positive requeue/],
    [200, '{"node":{"phase":"Running"},"requeue":"0s"}', /without a positive requeue/],
    [200, '{"node":{"phase":"Failed"},"requeue":"10s"}', /carries requeue/],
    [200, '{"node":{"phase":"Running"},"requeue":5}', /cannot decode/],
    [200, '{"node":{"phase":"Done"}}', /not an Argo phase/],
    [200, '[1]', /cannot decode/],
  ])('rejects %s %s', (status, text, problem) => expect(replyProblem(reply(status, text))).toMatch(problem));

  it('rejects no reply at all', () =>
    expect(replyProblem({ kind: 'error', error: 'no reply within 10 ms', code: 'HANG', ms: 10 })).toMatch(
      /HANG/,
    ));
});

describe('SecretSweep', () => {
  it('finds secret values and Basic-auth pairs, also when registered after the text was collected', () => {
    const sweep = new SecretSweep();
    sweep.collect(
      'a log',
      'Authorization: Basic YXJnby1ib3Q6czNjcjN0LXBhc3N3b3Jk and a token xoxb-123456789-abcdef',
    );
    sweep.addEnv({ JENKINS_USER: 'argo-bot', JENKINS_PASSWORD: 's3cr3t-password', PORT: '10420' });
    sweep.add('slack token', 'xoxb-123456789-abcdef');
    expect(sweep.check().map((l) => l.secret)).toEqual([
      'base64(JENKINS_USER:JENKINS_PASSWORD)',
      'slack token',
    ]);
  });

  it('ignores values too short to be recognisable and names that do not look secret', () => {
    const sweep = new SecretSweep();
    sweep.addEnv({ API_KEY: 'abc', LOG_LEVEL: 'debug-verbose-mode' });
    sweep.collect('a log', 'abc debug-verbose-mode');
    expect(sweep.check()).toEqual([]);
  });
});

describe('FaultProxy', () => {
  let upstream: StandInServer;
  beforeAll(async () => {
    upstream = new StandInServer('upstream');
    upstream.route('POST', '/create', (req) => ({
      status: 201,
      headers: { Location: `http://${req.headers.host}/items/1` },
      body: { self: `http://${req.headers.host}/items/1` },
    }));
    await upstream.start();
  });
  afterAll(() => upstream.close());

  it('passes requests through, pointing the upstream’s own links at itself, and tallies watched statuses', async () => {
    const proxy = new FaultProxy(
      upstream.url,
      { seed: 1, rate: 0, faults: [] },
      { method: 'POST', path: '/create' },
    );
    await proxy.start();
    try {
      const res = await fetch(`${proxy.url}/create`, { method: 'POST', body: '{}', redirect: 'manual' });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe(`${proxy.url}/items/1`);
      expect(await res.json()).toEqual({ self: `${proxy.url}/items/1` });
      expect([...proxy.watched]).toEqual([[201, 1]]);
    } finally {
      await proxy.close();
    }
  });

  it('answers a status fault itself: the upstream never sees the request', async () => {
    const proxy = new FaultProxy(upstream.url, {
      seed: 1,
      rate: 1,
      faults: [{ kind: 'status', status: 503 }],
    });
    await proxy.start();
    const before = upstream.count('POST', '/create');
    try {
      expect((await fetch(`${proxy.url}/create`, { method: 'POST', body: '{}' })).status).toBe(503);
      expect(upstream.count('POST', '/create')).toBe(before);
      expect(proxy.injected.get('status 503')).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('loses the reply of a request the upstream acted on', async () => {
    const proxy = new FaultProxy(upstream.url, { seed: 1, rate: 1, faults: [{ kind: 'lost-reply' }] });
    await proxy.start();
    const before = upstream.count('POST', '/create');
    try {
      const outcome = await sendRaw(
        proxy.url,
        { method: 'POST', path: '/create', headers: {}, body: '{}' },
        { timeoutMs: 2000 },
      );
      expect(outcome.kind).toBe('error');
      expect(upstream.count('POST', '/create')).toBe(before + 1);
    } finally {
      await proxy.close();
    }
  });
});
