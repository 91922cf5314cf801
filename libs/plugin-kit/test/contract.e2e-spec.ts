import { request } from 'node:http';
import { connect } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { denseJson, executeArgs, startHarness, type PluginHarness } from '@app/local-agent';
import { probePlugin, probeStats } from './fixtures/probe-plugin.js';

const EXECUTE = '/api/v1/template.execute';
const probe = (body: Record<string, unknown> = {}, options = {}) => executeArgs({ probe: body }, options);

async function post(url: string, body: string, headers: Record<string, string> = {}, method = 'POST') {
  const res = await fetch(url, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: method === 'GET' ? undefined : body,
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** The probe's request as text, with `json` beside the probe's body under `template.plugin`. */
function besideProbe(json: string, body: Record<string, unknown> = {}): string {
  const own = `"probe":${JSON.stringify(body)}`;
  return JSON.stringify(probe(body)).replace(own, `${own},"extra":${json}`);
}

/** A call on a connection of its own (never one kept alive from an earlier call): its status, or the error code. */
function postOnNewConnection(port: number, token: string): Promise<number | string> {
  const body = JSON.stringify(probe());
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: EXECUTE,
        agent: false,
        headers: { Authorization: `Bearer ${token}`, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end(body);
  });
}

describe('plugin kit: the executor plugin contract over real HTTP', () => {
  let h: PluginHarness;
  beforeAll(async () => {
    h = await startHarness(probePlugin, { env: { CALL_DEADLINE: '1s' } });
  });
  afterAll(() => h.close());
  beforeEach(() => probeStats.reset());

  describe('auth: 403 on every path and method, before any work', () => {
    it.each([
      ['POST', EXECUTE],
      ['GET', EXECUTE],
      ['POST', '/api/v1/unknown.method'],
      ['GET', '/'],
      ['DELETE', '/healthz'],
      ['PUT', '/api/v1/template.execute?x=1'],
    ])('%s %s with a wrong token → 403', async (method, path) => {
      const res = await post(
        `${h.url}${path}`,
        JSON.stringify(probe()),
        { Authorization: 'Bearer wrong' },
        method,
      );
      expect(res.status).toBe(403);
    });

    it('refuses a missing header, another scheme and the token without "Bearer "', async () => {
      for (const headers of [
        {} as Record<string, string>,
        { Authorization: `Basic ${h.token}` },
        { Authorization: h.token },
        { Authorization: `bearer ${h.token}` },
      ]) {
        expect((await post(`${h.url}${EXECUTE}`, JSON.stringify(probe()), headers)).status).toBe(403);
      }
      expect(probeStats.executions).toBe(0);
    });

    it('answers a 50 MB upload with a bad token before the body is sent, and closes the connection', async () => {
      const socket = connect(h.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const declared = 50 * 1024 * 1024;
      socket.write(
        `POST ${EXECUTE} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer nope\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(64 * 1024, 0x20)); // only 64 KiB of the 50 MB are ever sent
      const response = await new Promise<string>((resolve) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', () => resolve(text));
      });
      expect(response).toMatch(/^HTTP\/1\.1 403 /);
      expect(response.toLowerCase()).toContain('connection: close');
      expect(socket.bytesWritten).toBeLessThan(declared / 100);
    });

    it('rotates the token without a restart: the old one is refused within a second', async () => {
      const old = h.token;
      h.rotateToken(`rotated-token-${Date.now()}-bcdfghjklmnpq`);
      await new Promise((r) => setTimeout(r, 600));
      expect(
        (await post(`${h.url}${EXECUTE}`, JSON.stringify(probe()), { Authorization: `Bearer ${old}` }))
          .status,
      ).toBe(403);
      expect((await h.execute(probe())).status).toBe(200);
      expect(h.logs.some((l) => l.msg === 'token file changed: using the new token')).toBe(true);
    });
  });

  describe('routing and body handling', () => {
    it('404 for unknown methods and for GET on the execute path (after auth)', async () => {
      const auth = { Authorization: `Bearer ${h.token}` };
      expect((await post(`${h.url}/api/v1/workflow.fail`, '{}', auth)).status).toBe(404);
      expect((await post(`${h.url}${EXECUTE}`, '', auth, 'GET')).status).toBe(404);
    });

    it('400 with a short text for malformed JSON, and for a body that is not an object', async () => {
      const auth = { Authorization: `Bearer ${h.token}` };
      const bad = await post(`${h.url}${EXECUTE}`, '{"workflow":', auth);
      expect(bad.status).toBe(400);
      expect(bad.text).toMatch(/^invalid JSON/);
      expect((await post(`${h.url}${EXECUTE}`, '[1,2]', auth)).status).toBe(400);
    });

    it('413 for a body over the limit (1 MiB by default)', async () => {
      const big = JSON.stringify(probe({ message: 'x'.repeat(1024 * 1024 + 10) }));
      const res = await post(`${h.url}${EXECUTE}`, big, { Authorization: `Bearer ${h.token}` });
      expect(res.status).toBe(413);
    });

    it.each([
      ['wide', 'request body holds more than 20000 JSON values and keys (BODY_MAX_VALUES)'],
      ['deep', 'request body nested deeper than 64 levels'],
    ] as const)(
      '413 for %s JSON under the byte limit that would build more than the front allows',
      async (shape, text) => {
        const res = await post(`${h.url}${EXECUTE}`, besideProbe(denseJson(shape, 1000 * 1000)), {
          Authorization: `Bearer ${h.token}`,
        });
        expect(res).toMatchObject({ status: 413, text });
        expect(probeStats.executions).toBe(0);
      },
    );

    it('parses and executes dense JSON within both bounds', async () => {
      const body = { message: 'within' };
      const res = await post(`${h.url}${EXECUTE}`, besideProbe(denseJson('wide', 3 * 19_000), body), {
        Authorization: `Bearer ${h.token}`,
      });
      expect(res.status).toBe(200);
      expect(probeStats.executions).toBe(1);
    });

    it('503 + Retry-After for a heavy body while the bodies in flight hold what the front gives them; light calls are still answered', async () => {
      const limit = 1024 * 1024;
      // Four clients each send most of a 1 MiB body and stop: together they hold the front's 4 MiB.
      const holders = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const socket = connect(h.port, '127.0.0.1');
          await new Promise((resolve) => socket.once('connect', resolve));
          socket.write(
            `POST ${EXECUTE} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${h.token}\r\nContent-Length: ${limit}\r\n\r\n`,
          );
          socket.write(`{"x":"${'a'.repeat(limit - 100)}`);
          return socket;
        }),
      );
      try {
        await new Promise((r) => setTimeout(r, 300));
        const auth = { Authorization: `Bearer ${h.token}` };
        const heavy = JSON.stringify(probe({ message: 'x'.repeat(200 * 1024) }));
        const refused = await post(`${h.url}${EXECUTE}`, heavy, auth);
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('1');
        expect(refused.text).toMatch(/^busy: /);
        const light = await post(`${h.url}${EXECUTE}`, JSON.stringify(probe()), auth);
        expect(light.status).toBe(200);
      } finally {
        holders.forEach((s) => s.destroy());
      }
      await new Promise((r) => setTimeout(r, 100));
      const heavy = JSON.stringify(probe({ message: 'x'.repeat(200 * 1024) }));
      expect((await post(`${h.url}${EXECUTE}`, heavy, { Authorization: `Bearer ${h.token}` })).status).toBe(
        200,
      );
    });

    it('a local client holding every connection slot never locks out a call with the token', async () => {
      const idle = await Promise.all(
        Array.from({ length: 256 }, async () => {
          const socket = connect(h.port, '127.0.0.1');
          socket.on('error', () => undefined);
          await new Promise((resolve) => socket.once('connect', resolve));
          return socket;
        }),
      );
      try {
        await new Promise((r) => setTimeout(r, 200));
        for (let i = 0; i < 5; i++) expect(await postOnNewConnection(h.port, h.token)).toBe(200);
        const closed = idle.filter((s) => s.destroyed || s.readableEnded).length;
        expect(closed).toBeGreaterThanOrEqual(1);
      } finally {
        idle.forEach((s) => s.destroy());
      }
    });
  });

  describe('dispatch', () => {
    it('answers {} for a template addressed to another plugin, without running anything', async () => {
      const res = await h.execute(executeArgs({ slack: { text: 'hi' } }));
      expect(res).toMatchObject({ status: 200, text: '{}' });
      expect(
        (
          await h.execute({
            workflow: { metadata: {} },
            template: { name: 'x', container: { image: 'alpine' } },
          })
        ).text,
      ).toBe('{}');
      expect(probeStats.executions).toBe(0);
    });

    it('a bad config is a 200 Failed reply naming the field', async () => {
      const res = await h.execute(probe({ outcome: 'explode', delayMs: -1 }));
      expect(res.status).toBe(200);
      expect(res.body.node?.phase).toBe('Failed');
      expect(res.body.node?.message).toMatch(/^probe: invalid config: /);
      expect(res.body.node?.message).toContain('outcome: must be one of the following values');
      expect(res.body.node?.message).toContain('delayMs: must not be less than 0');
      expect(res.body.requeue).toBeUndefined();
      expect(probeStats.executions).toBe(0);
    });

    it('reports an unknown field with a suggestion, and nested fields by path', async () => {
      const typo = await h.execute(probe({ mesage: 'hi' }));
      expect(typo.body.node?.message).toBe(
        'probe: invalid config: mesage: unknown field (did you mean "message"?)',
      );
      const nested = await h.execute(probe({ target: { name: 3 } }));
      expect(nested.body.node?.message).toBe('probe: invalid config: target.name: must be a string');
    });

    it('answers an alias key as the canonical body, naming fields as the alias body has them', async () => {
      const ok = await h.execute(executeArgs({ 'probe-target': { name: 'x' } }));
      expect(ok.body.node).toMatchObject({ phase: 'Succeeded', message: 'done' });
      const bad = await h.execute(executeArgs({ 'probe-target': { name: 3 } }));
      expect(bad.body.node?.message).toBe('probe-target: invalid config: name: must be a string');
      const both = await h.execute(
        executeArgs({ probe: { message: 'own key' }, 'probe-target': { name: 3 } }),
      );
      expect(both.body.node).toMatchObject({ phase: 'Succeeded', message: 'done' });
      expect(probeStats.executions).toBe(2);
    });

    it('refuses prototype keys and absurd nesting as Failed, never a 500', async () => {
      const proto = await h.execute(
        JSON.parse(
          '{"workflow":{"metadata":{"name":"a","namespace":"b","uid":"c"}},"template":{"name":"t","plugin":{"probe":{"__proto__":{"polluted":true}}}}}',
        ),
      );
      expect(proto.body.node?.message).toBe('probe: invalid config: __proto__: field name not allowed');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const nested = (levels: number): string =>
        JSON.stringify(probe({ target: '__DEEP__' })).replace(
          '"__DEEP__"',
          '{"a":'.repeat(levels) + '{}' + '}'.repeat(levels),
        );
      const res = await h.execute(nested(40));
      expect(res.body.node?.message).toBe('probe: invalid config: body: nested deeper than 32 levels');
      // Past the front's own bound the body is refused while it arrives, before anything is parsed.
      const absurd = await h.execute(nested(10_000));
      expect(absurd).toMatchObject({ status: 413, text: 'request body nested deeper than 64 levels' });
    });

    it('fails a malformed envelope of our own template with a message naming the field', async () => {
      const res = await h.execute({
        workflow: { metadata: { name: 'wf' } },
        template: { name: 'main', plugin: { probe: {} } },
      });
      expect(res.body.node).toEqual({
        phase: 'Failed',
        message:
          'probe: invalid request: workflow.metadata.namespace: must be a string; workflow.metadata.uid: must be a string',
      });
    });

    it('succeeds with output parameters as strings, input parameters available', async () => {
      const res = await h.execute(
        probe(
          { message: 'hi' },
          {
            parameters: [
              { name: 'who', value: 'world' },
              { name: 'd', default: 'x' },
            ],
          },
        ),
      );
      expect(res.body).toEqual({
        node: {
          phase: 'Succeeded',
          message: 'done',
          outputs: {
            parameters: [
              { name: 'greeting', value: 'hi' },
              { name: 'calls', value: '1' },
              { name: 'params', value: '{"who":"world","d":"x"}' },
            ],
          },
        },
      });
    });
  });

  describe('reply invariants', () => {
    it('every Running reply carries a requeue, even when the handler forgot it', async () => {
      const res = await h.execute(probe({ outcome: 'running-no-requeue' }));
      expect(res.body).toEqual({ node: { phase: 'Running', message: 'no requeue given' }, requeue: '10s' });
      expect((await h.execute(probe({ outcome: 'running' }))).body.requeue).toBe('30s');
    });

    it('a Failed reply never carries a requeue', async () => {
      const res = await h.execute(probe({ outcome: 'failed-with-requeue' }));
      expect(res.body).toEqual({ node: { phase: 'Failed', message: 'failed but asked for requeue' } });
    });

    it('an exception is a Failed "internal error" reply, never an HTTP 500', async () => {
      const res = await h.execute(probe({ outcome: 'throw' }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ node: { phase: 'Failed', message: 'probe: internal error: kaboom' } });
      expect(
        h.logs.some(
          (l) =>
            l.level === 'error' && String(l.msg).includes('kaboom') && JSON.stringify(l).includes('stack'),
        ),
      ).toBe(true);
    });

    it('a reply without a phase is turned into Failed', async () => {
      expect((await h.execute(probe({ outcome: 'no-phase' }))).body.node?.phase).toBe('Failed');
    });

    it('a PluginConfigError is Failed as invalid config', async () => {
      expect((await h.execute(probe({ outcome: 'config-error' }))).body.node?.message).toBe(
        'probe: invalid config: target: no such target "x"',
      );
    });
  });

  describe('upstream errors', () => {
    it('transient → Running with a backoff requeue that honours Retry-After; permanent → Failed', async () => {
      const first = await h.execute(probe({ outcome: 'transient', key: 'a' }));
      expect(first.body).toEqual({
        node: { phase: 'Running', message: 'upstream unavailable (503); retrying in 5s (attempt 1 of 10)' },
        requeue: '5s',
      });
      const second = await h.execute(probe({ outcome: 'transient', key: 'a' }));
      expect(second.body.requeue).toBe('10s');
      const honoured = await h.execute(probe({ outcome: 'transient', key: 'b', retryAfterMs: 42_000 }));
      expect(honoured.body.requeue).toBe('42s');
      const permanent = await h.execute(probe({ outcome: 'permanent' }));
      expect(permanent.body).toEqual({ node: { phase: 'Failed', message: 'upstream said no (404)' } });
    });

    it('gives up after the retry budget with the last upstream message', async () => {
      const budget = await startHarness(probePlugin, { env: { RETRY_BUDGET: '2' } });
      try {
        const body = probe({ outcome: 'transient', message: 'gateway timeout (504)' });
        expect((await budget.execute(body)).body.node?.phase).toBe('Running');
        expect((await budget.execute(body)).body.node?.phase).toBe('Running');
        expect((await budget.execute(body)).body).toEqual({
          node: { phase: 'Failed', message: 'gateway timeout (504) (gave up after 3 attempts)' },
        });
      } finally {
        await budget.close();
      }
    });
  });

  describe('idempotency: the execution ledger', () => {
    it('16 concurrent identical calls run the handler once and all get the same reply', async () => {
      const body = probe({ delayMs: 300, key: 'concurrent' });
      const replies = await Promise.all(Array.from({ length: 16 }, () => h.execute(body)));
      expect(probeStats.executions).toBe(1);
      for (const r of replies) expect(r.body).toEqual(replies[0].body);
      expect(replies[0].body.node?.phase).toBe('Succeeded');
    });

    it('replays Succeeded on a repeated call, without running the handler again', async () => {
      const body = probe({ key: 'replay' });
      const first = await h.execute(body);
      const again = await h.execute(body);
      expect(again.body).toEqual(first.body);
      expect(probeStats.executions).toBe(1);
      expect(h.logs.filter((l) => l.source === 'replayed').length).toBeGreaterThan(0);
    });

    it('does not remember Failed: the next identical call is a retry', async () => {
      const body = probe({ outcome: 'fail', key: 'retry' });
      await h.execute(body);
      await h.execute(body);
      expect(probeStats.executions).toBe(2);
    });

    it('separates executions by workflow uid, template name, body and input parameters (not key order)', async () => {
      await h.execute(probe({ key: 'k', message: 'm' }));
      await h.execute(probe({ message: 'm', key: 'k' }));
      expect(probeStats.executions).toBe(1);
      await h.execute(probe({ key: 'k', message: 'm' }, { workflow: { uid: 'other-uid' } }));
      await h.execute(probe({ key: 'k', message: 'm' }, { templateName: 'other' }));
      await h.execute(probe({ key: 'k', message: 'm' }, { parameters: [{ name: 'p', value: '1' }] }));
      expect(probeStats.executions).toBe(4);
    });

    it('keeps handler state between calls of one execution (polling)', async () => {
      const body = probe({ outcome: 'poll', key: 'poll' });
      expect((await h.execute(body)).body.node?.message).toBe('poll 1');
      expect((await h.execute(body)).body.node?.message).toBe('poll 2');
      expect((await h.execute(body)).body.node?.phase).toBe('Succeeded');
      expect((await h.execute(body)).body.node?.outputs?.parameters).toEqual([{ name: 'polls', value: '3' }]);
      expect(probeStats.executions).toBe(3);
    });
  });

  describe('the call deadline (1s here, 20s by default)', () => {
    it('replies Running with a short requeue when the work outlives the deadline, then delivers its result', async () => {
      const body = probe({ delayMs: 1500, key: 'slow' });
      const started = Date.now();
      const first = await h.execute(body);
      expect(Date.now() - started).toBeLessThan(1400);
      expect(first.body).toEqual({
        node: { phase: 'Running', message: 'probe: still working after 1s' },
        requeue: '5s',
      });
      await new Promise((r) => setTimeout(r, 800));
      const second = await h.execute(body);
      expect(second.body.node?.phase).toBe('Succeeded');
      expect(probeStats.executions).toBe(1);
    });

    it('a Failed result that finished after the deadline is delivered once, then the call is retried', async () => {
      const body = probe({ outcome: 'fail', delayMs: 1200, key: 'slow-fail' });
      expect((await h.execute(body)).body.node?.phase).toBe('Running');
      await new Promise((r) => setTimeout(r, 600));
      expect((await h.execute(body)).body.node?.phase).toBe('Failed');
      expect(probeStats.executions).toBe(1);
      expect((await h.execute(body)).body.node?.phase).toBe('Running'); // a new attempt started
      expect(probeStats.executions).toBe(2);
    });
  });

  describe('an upstream that fails each attempt after the deadline (1s here)', () => {
    it('names, while the next attempt runs, which one failed and why, not only "still working"', async () => {
      const body = probe({
        outcome: 'transient',
        delayMs: 1200,
        key: 'slow-transient',
        // An upstream text that echoes a credential: masked in this message as in every other.
        message: 'probe: GET /jobs/7: ECONNREFUSED (key probe-secret-value-0123456789)',
      });
      expect((await h.execute(body)).body.node?.message).toBe('probe: still working after 1s');
      await new Promise((r) => setTimeout(r, 600)); // attempt 1 fails at 1.2s, no caller waiting for it
      const second = await h.execute(body);
      expect(second.body).toEqual({
        node: {
          phase: 'Running',
          message:
            'probe: still working after 1s, retrying after attempt 1 of 10 failed: probe: GET /jobs/7: ECONNREFUSED (key [REDACTED])',
        },
        requeue: '5s',
      });
      expect(probeStats.executions).toBe(2);
    });
  });

  describe('secrets', () => {
    it('never shows an env secret or the agent token in replies or logs', async () => {
      const res = await h.execute(probe({ outcome: 'leak' }));
      expect(res.text).not.toContain('probe-secret-value-0123456789');
      expect(res.text).toContain('[REDACTED]');
      await h.execute(probe({ message: `token ${h.token}` }));
      const logs = h.logText();
      expect(logs).not.toContain('probe-secret-value-0123456789');
      expect(logs).not.toContain(h.token);
    });
  });

  it('logs one structured line per call with workflow, template, key, phase and duration', async () => {
    await h.execute(
      probe(
        { key: 'logged' },
        { workflow: { name: 'wf-log', namespace: 'ns1', uid: 'uid-log' }, templateName: 'notify' },
      ),
    );
    const line = h.logs.find(
      (l) => l.msg === 'template.execute' && (l.workflow as { name?: string })?.name === 'wf-log',
    );
    expect(line).toMatchObject({
      level: 'info',
      plugin: 'probe',
      workflow: { name: 'wf-log', namespace: 'ns1', uid: 'uid-log' },
      template: 'notify',
      phase: 'Succeeded',
      source: 'executed',
    });
    expect(line?.key).toMatch(/^[0-9a-f]{16}$/);
    expect(typeof line?.durationMs).toBe('number');
  });
});

describe('plugin kit: token file problems fail closed', () => {
  it('refuses everything with one log line while the token file is missing, and recovers when it appears', async () => {
    const h = await startHarness(probePlugin);
    try {
      rmSync(h.tokenFile);
      await new Promise((r) => setTimeout(r, 300));
      expect((await h.execute(probe())).status).toBe(403);
      expect((await h.execute(probe())).status).toBe(403);
      const complaints = h.logs.filter((l) => String(l.msg).includes('is missing: every request is refused'));
      expect(complaints).toHaveLength(1);
      writeFileSync(h.tokenFile, `${h.token}\n`); // a trailing newline is trimmed
      await new Promise((r) => setTimeout(r, 300));
      expect((await h.execute(probe())).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('an empty token file refuses every request', async () => {
    const h = await startHarness(probePlugin);
    try {
      writeFileSync(h.tokenFile, '  \n');
      await new Promise((r) => setTimeout(r, 300));
      expect((await h.execute(probe())).status).toBe(403);
      expect(h.logs.some((l) => String(l.msg).includes('is empty'))).toBe(true);
    } finally {
      await h.close();
    }
  });
});

describe('plugin kit: graceful shutdown', () => {
  it('finishes the in-flight call, refuses new ones, then stops', async () => {
    const h = await startHarness(probePlugin);
    probeStats.reset();
    const slow = h.execute(probe({ delayMs: 400, key: 'inflight' }));
    await new Promise((r) => setTimeout(r, 100));
    const stopping = h.shutdown('SIGTERM');
    const during = await h
      .execute(probe({ key: 'late' }))
      .catch((err: Error) => ({ status: 0, error: err.message }));
    expect([0, 503]).toContain(during.status); // refused: 503 on an open connection, or no connection at all
    expect((await slow).body.node?.phase).toBe('Succeeded');
    await stopping;
    expect(h.logs.some((l) => l.msg === 'stopped' && l.clean === true)).toBe(true);
  });
});
