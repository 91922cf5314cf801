import { StandInServer } from '@app/local-agent';
import { UpstreamError } from '../errors/upstream-error.js';
import { Redactor } from '../logging/redactor.js';
import { createUpstreamClient } from './http-client.js';
import { runInUpstreamScope } from './upstream-scope.js';

describe('createUpstreamClient', () => {
  const upstream = new StandInServer('fake');
  const elsewhere = new StandInServer('elsewhere');
  beforeAll(async () => {
    upstream
      .route('GET', '/ok', () => ({ body: { fine: true } }))
      .route('GET', '/html', () => ({
        status: 404,
        headers: { 'Content-Type': 'text/html' },
        body: '<html><head><title>Error 404 Not Found</title></head><body><h2>HTTP ERROR 404 Not Found</h2></body></html>',
      }))
      .route('GET', '/json-error', () => ({ status: 422, body: { message: 'No ref found for: nope' } }))
      .route('GET', '/echo-auth', (req) => ({ body: { auth: req.headers.authorization ?? null } }));
    await upstream.start();
    elsewhere.route('GET', '/steal', (req) => ({ body: { auth: req.headers.authorization ?? null } }));
    await elsewhere.start();
  });
  afterAll(async () => {
    await upstream.close();
    await elsewhere.close();
  });
  beforeEach(() => upstream.faults.clear());

  const client = () =>
    createUpstreamClient({
      upstream: 'fake',
      baseURL: upstream.url,
      headers: { Authorization: 'Bearer s3cret-token' },
      timeoutMs: 300,
    });

  const failure = async (p: Promise<unknown>): Promise<UpstreamError> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof UpstreamError) return err;
      throw err;
    }
    throw new Error('expected a failure');
  };

  it('passes 2xx through', async () => {
    expect((await client().get('/ok')).data).toEqual({ fine: true });
  });

  it('classifies 429 and 5xx as transient, keeping Retry-After', async () => {
    upstream.faults.add({ kind: 'rate-limit', retryAfterSeconds: 7 });
    const limited = await failure(client().get('/ok'));
    expect(limited).toMatchObject({ kind: 'transient', status: 429, retryAfterMs: 7000 });
    expect(limited.message).toBe('fake: GET /ok → 429 Too Many Requests: rate limited');
    upstream.faults.add({ kind: 'status', status: 502 });
    expect(await failure(client().get('/ok'))).toMatchObject({ kind: 'transient', status: 502 });
  });

  it('classifies other 4xx as permanent with a short detail, HTML pages reduced to their heading', async () => {
    expect((await failure(client().get('/json-error'))).message).toBe(
      'fake: GET /json-error → 422 Unprocessable Entity: No ref found for: nope',
    );
    const html = await failure(client().get('/html'));
    expect(html).toMatchObject({ kind: 'permanent', status: 404 });
    expect(html.message).toBe('fake: GET /html → 404 Not Found: HTTP ERROR 404 Not Found');
  });

  it('treats resets and timeouts as transient, without leaking the query string', async () => {
    upstream.faults.add({ kind: 'reset' });
    const reset = await failure(client().get('/ok?token=abc'));
    expect(reset.kind).toBe('transient');
    expect(reset.message).toMatch(/^fake: GET \/ok: /);
    expect(reset.message).not.toContain('token=abc');
    upstream.faults.add({ kind: 'hang' });
    const hung = await failure(client().get('/ok'));
    expect(hung.kind).toBe('transient');
    expect(hung.message).toBe('fake: GET /ok: timed out');
  });

  it('never sends the credentials to another host, even for an absolute URL', async () => {
    await failure(client().get(`${elsewhere.url}/steal`)).catch(() => undefined);
    expect(elsewhere.calls).toHaveLength(0);
  });

  describe('against a hostile upstream', () => {
    const scope = { maxBodyBytes: 64 * 1024, maxValues: 10_000, redactor: new Redactor() };
    const inScope = <T>(fn: () => Promise<T>): Promise<T> => runInUpstreamScope(scope, fn);

    it.each([
      ['streamed', false],
      ['declared in Content-Length', true],
    ])(
      'stops reading a reply larger than the scope allows (%s): a permanent error',
      async (_, declareLength) => {
        upstream.faults.add({ kind: 'huge', bytes: 8 * 1024 * 1024, declareLength });
        const err = await failure(inScope(() => client().get('/ok')));
        expect(err.kind).toBe('permanent');
        expect(err.message).toBe(
          'fake: GET /ok: reply larger than 64 KiB (the sidecar reads at most UPSTREAM_MAX_BODY bytes of an upstream reply)',
        );
      },
    );

    it.each([
      [
        'wide',
        200,
        'reply holds more than 10000 JSON values and keys (the sidecar builds at most UPSTREAM_MAX_VALUES values from one upstream reply)',
      ],
      [
        'wide',
        500,
        'reply holds more than 10000 JSON values and keys (the sidecar builds at most UPSTREAM_MAX_VALUES values from one upstream reply)',
      ],
      [
        'deep',
        200,
        'reply nested deeper than 64 levels (the sidecar parses upstream replies up to that depth)',
      ],
    ] as const)(
      'refuses to parse a %s reply (status %i) dearer than the scope allows, under the byte limit: a permanent error',
      async (shape, status, message) => {
        upstream.faults.add({ kind: 'dense', shape, bytes: 60 * 1024, status });
        const err = await failure(inScope(() => client().get('/ok')));
        expect(err).toMatchObject({ kind: 'permanent', message: `fake: GET /ok: ${message}` });
      },
    );

    it('refuses a dear reply to a request that parses the text itself', async () => {
      upstream.faults.add({ kind: 'dense', shape: 'wide', bytes: 60 * 1024 });
      const asText = inScope(() =>
        client().get('/ok', { responseType: 'text', transformResponse: [(text: unknown) => text] }),
      );
      expect(await failure(asText)).toMatchObject({
        kind: 'permanent',
        message: expect.stringMatching(/more than 10000 JSON values/),
      });
    });

    it('parses a reply within the value limit', async () => {
      upstream.faults.add({ kind: 'dense', shape: 'wide', bytes: 3 * 9000 });
      expect((await inScope(() => client().get('/ok'))).data).toHaveLength(8999);
    });

    it('reads a reply within the limit', async () => {
      upstream.faults.add({ kind: 'huge', bytes: 60 * 1024 });
      expect((await inScope(() => client().get('/ok'))).status).toBe(200);
    });

    it('aborts a reply that trickles in past the wall-clock deadline (the idle timeout never fires)', async () => {
      upstream.faults.add({ kind: 'trickle', intervalMs: 50 });
      const t0 = performance.now();
      const err = await failure(inScope(() => client().get('/ok')));
      expect(performance.now() - t0).toBeLessThan(2000);
      expect(err).toMatchObject({
        kind: 'transient',
        message: 'fake: GET /ok: timed out',
      });
    });

    it('does not follow a redirect to another host', async () => {
      upstream.faults.add({ kind: 'redirect', location: `${elsewhere.url}/steal` });
      const err = await failure(inScope(() => client().get('/ok')));
      expect(err).toMatchObject({ kind: 'permanent', status: 302 });
      expect(elsewhere.calls).toHaveLength(0);
    });

    it.each([0, 150, 170, 185, 199])(
      'masks the credentials it sent before cutting an echoed error (echo after %i characters)',
      async (pad) => {
        const http = createUpstreamClient({
          upstream: 'fake',
          baseURL: upstream.url,
          auth: { username: 'argo-bot', password: 'jenkins-api-token-1234' },
          headers: { 'PRIVATE-TOKEN': 'glpat-privateTOKENvalue' },
          timeoutMs: 300,
        });
        upstream.faults.add({ kind: 'echo', pad });
        const err = await failure(inScope(() => http.get('/ok')));
        const basic = Buffer.from('argo-bot:jenkins-api-token-1234').toString('base64');
        for (const prefix of [basic.slice(0, 8), 'jenkins-api', 'glpat-pri'])
          expect(err.message).not.toContain(prefix);
        expect(err.message.length).toBeLessThan(260);
      },
    );
  });

  it('never puts the credentials in an error message', async () => {
    upstream.faults.add({ kind: 'status', status: 401, body: { message: 'bad credentials' } });
    const err = await failure(client().get('/echo-auth'));
    expect(err.message).not.toContain('s3cret-token');
  });
});

describe('StandInServer introspection', () => {
  it('counts recorded calls over HTTP without recording the query itself', async () => {
    const s = new StandInServer('counted').route('POST', '/api/thing', () => ({ body: { ok: true } }));
    await s.start();
    try {
      await fetch(`${s.url}/api/thing`, { method: 'POST' });
      await fetch(`${s.url}/api/thing`, { method: 'POST' });
      await fetch(`${s.url}/other`);
      const count = (await (await fetch(`${s.url}/__stand-in/count?method=POST&path=/api/thing`)).json()) as {
        count: number;
      };
      expect(count.count).toBe(2);
      expect(s.calls).toHaveLength(3);
    } finally {
      await s.close();
    }
  });
});
