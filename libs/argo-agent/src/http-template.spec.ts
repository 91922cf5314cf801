import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { executeHttpTemplate, HttpTemplateError, type HttpTemplate } from './http-template.js';

interface Seen {
  method: string;
  url: string;
  headers: string[];
  body: string;
}

describe('executeHttpTemplate (Argo agent executeHTTPTemplate)', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  const secrets: Record<string, Record<string, string>> = { creds: { token: 's3cr3t' } };

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.rawHeaders,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path === '/status/404') return void res.writeHead(404).end('nope');
        if (path === '/json') {
          res.writeHead(200, { 'Content-Type': 'application/json', 'X-Multi': ['a', 'b'] });
          return void res.end('{"ok":true}');
        }
        if (path === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 3000).unref();
        if (path === '/stall') {
          res.writeHead(200, { 'Content-Length': '10' });
          res.write('part');
          return;
        }
        if (path === '/gzip') {
          res.writeHead(200, { 'Content-Encoding': 'gzip' });
          return void res.end(gzipSync('unzipped'));
        }
        if (path === '/big') return void res.writeHead(200).end('x'.repeat(5000));
        if (path === '/redirect') return void res.writeHead(302, { Location: '/json' }).end();
        res.writeHead(200).end('hello');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => (seen.length = 0));

  const options = {
    maxBodyBytes: 1024,
    secret: async (name: string, key: string) => {
      const secret = secrets[name];
      if (!secret) throw new HttpTemplateError(`secrets "${name}" not found`);
      if (!(key in secret)) throw new HttpTemplateError(`secret '${name}' does not have the key '${key}'`);
      return Buffer.from(secret[key]!);
    },
  };
  const run = (http: Partial<HttpTemplate>) => executeHttpTemplate({ url: `${base}/`, ...http }, options);
  const failure = (http: Partial<HttpTemplate>) =>
    run(http).then(
      () => 'no error',
      (e: Error) => e.message,
    );

  it('2xx succeeds with the body as the result; GET without a body sends no Content-Length', async () => {
    expect(await run({})).toEqual({ phase: 'Succeeded', outputs: { result: 'hello' } });
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.headers).toEqual(expect.arrayContaining(['User-Agent', 'Go-http-client/1.1']));
    expect(seen[0]!.headers).not.toContain('Content-Length');
  });

  it('non-2xx fails with Argo message and still gives the body', async () => {
    expect(await run({ url: `${base}/status/404` })).toEqual({
      phase: 'Failed',
      message: 'received non-2xx response code: 404',
      outputs: { result: 'nope' },
    });
  });

  it('successCondition over the response: true, false', async () => {
    const ok =
      'response.statusCode == 200 && response.headers["X-Multi"][1] == "b" && response.body contains "ok"';
    expect(await run({ url: `${base}/json`, successCondition: ok })).toMatchObject({ phase: 'Succeeded' });
    expect(await run({ url: `${base}/json`, successCondition: 'response.statusCode == 201' })).toEqual({
      phase: 'Failed',
      message: "successCondition 'response.statusCode == 201' evaluated false",
      outputs: { result: '{"ok":true}' },
    });
  });

  it('successCondition over the request: method, url, body, plain headers only (not secret ones)', async () => {
    const condition =
      'request.method == "POST" && request.body == "b" && request.headers["x-plain"][0] == "v" && !("X-Secret" in request.headers) && request.bodyBytes == nil';
    expect(
      await run({
        method: 'POST',
        body: 'b',
        headers: [
          { name: 'x-plain', value: 'v' },
          { name: 'X-Secret', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } },
        ],
        successCondition: condition,
      }),
    ).toMatchObject({ phase: 'Succeeded' });
  });

  it('an erroring successCondition: compile error as expr words it, run error and non-bool as Argo does', async () => {
    expect(await failure({ successCondition: 'nope == 1' })).toBe(
      'unknown name nope (1:1)\n | nope == 1\n | ^',
    );
    // A header the response lacks is Go's nil []string, not nil: indexing it is out of range.
    expect(await failure({ successCondition: 'response.headers["X-None"][0] == "a"' })).toBe(
      `unable to evaluate expression 'response.headers["X-None"][0] == "a"': index out of range: 0 (array length is 0) (1:27)\n | response.headers["X-None"][0] == "a"\n | ..........................^`,
    );
    expect(await run({ successCondition: 'len(response.headers["X-None"]) == 0' })).toMatchObject({
      phase: 'Succeeded',
    });
    expect(await failure({ successCondition: 'response.statusCode' })).toBe(
      "unable to cast expression result '%!s(int=200)' to bool",
    );
  });

  it('a timeoutSeconds past 2^31 ms (30 days) is a deadline 30 days away, not one that passes at once', async () => {
    expect(await run({ url: `${base}/slow`, timeoutSeconds: 2592000 })).toEqual({
      phase: 'Succeeded',
      outputs: { result: 'late' },
    });
  });

  it("timeoutSeconds never goes past the host's ceiling (maxTimeoutMs), nor does a template without one", async () => {
    const started = performance.now();
    const capped = (http: Partial<HttpTemplate>) =>
      executeHttpTemplate({ url: `${base}/slow`, ...http }, { ...options, maxTimeoutMs: 300 }).then(
        () => 'no error',
        (e: Error) => e.message,
      );
    expect(await capped({ timeoutSeconds: 3600 })).toBe(`Get "${base}/slow": context deadline exceeded`);
    expect(await capped({})).toBe(`Get "${base}/slow": context deadline exceeded`);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a successCondition past its budget of steps or time fails the node saying which bound (Argo has none)', async () => {
    const nested = 'let r = 1..700; all(r, all(r, all(r, true)))';
    const within = (exprBudget: { maxSteps: number; timeoutMs: number }) =>
      executeHttpTemplate({ url: `${base}/`, successCondition: nested }, { ...options, exprBudget }).then(
        () => 'no error',
        (e: Error) => e.message,
      );
    const started = performance.now();
    expect(await within({ maxSteps: 100_000, timeoutMs: 10_000 })).toBe(
      `unable to evaluate expression '${nested}': step budget exceeded: the agent evaluates a successCondition in at most 100000 steps and 10000 ms`,
    );
    expect(await within({ maxSteps: 1e9, timeoutMs: 50 })).toBe(
      `unable to evaluate expression '${nested}': time budget exceeded: the agent evaluates a successCondition in at most 1000000000 steps and 50 ms`,
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('headers: values and secrets of the namespace, canonical names, repeated names, Host rewrite', async () => {
    await run({
      headers: [
        { name: 'x-api-key', value: 'a' },
        { name: 'X-Api-Key', value: 'b' },
        { name: 'Authorization', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } },
        { name: 'Host', value: 'example.test' },
      ],
    });
    const h = seen[0]!.headers;
    expect(h.filter((_, i) => i % 2 === 0 && h[i] === 'X-Api-Key').length).toBe(2);
    expect(h).toEqual(expect.arrayContaining(['Authorization', 's3cr3t', 'Host', 'example.test']));
    expect(
      await failure({ headers: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'gone', key: 'k' } } }] }),
    ).toBe('secrets "gone" not found');
  });

  it('body and bodyFrom: the bytes sent, POST with an empty body sends Content-Length: 0', async () => {
    await run({ method: 'PUT', bodyFrom: { bytes: Buffer.from('raw bytes').toString('base64') } });
    await run({ method: 'POST' });
    expect(seen.map((s) => [s.method, s.body])).toEqual([
      ['PUT', 'raw bytes'],
      ['POST', ''],
    ]);
    expect(seen[1]!.headers).toEqual(expect.arrayContaining(['Content-Length', '0']));
    expect(
      await run({
        method: 'PUT',
        bodyFrom: { bytes: Buffer.from('xy').toString('base64') },
        successCondition: 'len(request.bodyBytes) == 2 && request.bodyBytes[0] == 120',
      }),
    ).toMatchObject({ phase: 'Succeeded' });
  });

  it('timeoutSeconds bounds the wait for headers and the body read', async () => {
    expect(await failure({ url: `${base}/slow`, timeoutSeconds: 1 })).toBe(
      `Get "${base}/slow": context deadline exceeded`,
    );
    expect(await failure({ url: `${base}/stall`, timeoutSeconds: 1 })).toBe('context deadline exceeded');
  });

  it('transport errors as Go words them', async () => {
    expect(await failure({ url: 'http://127.0.0.1:1' })).toBe(
      'Get "http://127.0.0.1:1": dial tcp 127.0.0.1:1: connect: connection refused',
    );
    // The password of a URL never shows (Go's stripPassword).
    expect(await failure({ url: 'http://user:s3cret@127.0.0.1:1/x' })).toBe(
      'Get "http://user:***@127.0.0.1:1/x": dial tcp 127.0.0.1:1: connect: connection refused',
    );
    expect(await failure({ url: 'ftp://x/y', method: 'DELETE' })).toBe(
      'Delete "ftp://x/y": unsupported protocol scheme "ftp"',
    );
    expect(await failure({ url: `${base}/`, method: 'BAD METHOD' })).toBe(
      'net/http: invalid method "BAD METHOD"',
    );
  });

  it('follows redirects and unzips what it asked gzip for, hiding that it did', async () => {
    expect(await run({ url: `${base}/redirect` })).toMatchObject({ outputs: { result: '{"ok":true}' } });
    expect(
      await run({
        url: `${base}/gzip`,
        successCondition: '!("Content-Encoding" in response.headers) && response.body == "unzipped"',
      }),
    ).toMatchObject({ phase: 'Succeeded', outputs: { result: 'unzipped' } });
  });

  it('a body over the bound fails the node instead of filling the memory', async () => {
    expect(await failure({ url: `${base}/big` })).toBe(
      'response body larger than 1024 bytes: the agent reads at most 1024 bytes',
    );
  });
});
