import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, KubeError, isTransientKubeError, type WatchEvent } from './kube-client.js';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

async function fakeApi(handler: Handler): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(`${req.method} ${url.pathname}${url.search} ${req.headers.authorization ?? ''}`);
    handler(req, res, url);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

const obj = (name: string, rv: string) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });

describe('KubeClient requests', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('throws the API status as a KubeError with its reason and message', async () => {
    const api = await fakeApi((_req, res) =>
      json(res, 404, { kind: 'Status', reason: 'NotFound', message: 'secrets "x" not found' }),
    );
    server = api.server;
    const client = new KubeClient({ server: api.url, token: 't' });
    const err = (await client.get('/api/v1/namespaces/ns/secrets/x').catch((e: unknown) => e)) as KubeError;
    expect(err).toBeInstanceOf(KubeError);
    expect([err.status, err.reason, err.apiMessage]).toEqual([404, 'NotFound', 'secrets "x" not found']);
    expect(await client.find('/api/v1/namespaces/ns/secrets/x')).toBeUndefined();
    expect(api.seen[0]).toContain('Bearer t');
    client.close();
  });

  it('refuses a reply over the size bound', async () => {
    const api = await fakeApi((_req, res) => json(res, 200, { data: 'x'.repeat(10_000) }));
    server = api.server;
    const client = new KubeClient({ server: api.url }, { maxBody: 1000 });
    await expect(client.get('/big')).rejects.toThrow(/answer over 1000 bytes/);
    client.close();
  });

  it('gives up on a server that does not answer in time', async () => {
    const api = await fakeApi(() => undefined);
    server = api.server;
    const client = new KubeClient({ server: api.url }, { timeoutMs: 200 });
    const started = Date.now();
    const err = await client.get('/slow').catch((e: unknown) => e);
    expect(String(err)).toMatch(/no answer in 200 ms/);
    expect(isTransientKubeError(err)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    client.close();
    server.closeAllConnections();
  });

  it('reads a rotated token file again after a 401', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-token-'));
    const file = join(dir, 'token');
    const mtime = new Date(1_700_000_000_000);
    writeFileSync(file, 'old\n');
    utimesSync(file, mtime, mtime);
    const api = await fakeApi((req, res) =>
      req.headers.authorization === 'Bearer new' ? json(res, 200, { ok: true }) : json(res, 401, {}),
    );
    server = api.server;
    const client = new KubeClient({ server: api.url, tokenFile: file });
    await expect(client.get('/x')).rejects.toMatchObject({ status: 401 });
    writeFileSync(file, 'new\n');
    // The same modification time as before: only the 401 makes the client read the file again.
    utimesSync(file, mtime, mtime);
    expect(await client.get('/x')).toEqual({ ok: true });
    expect(api.seen.map((s) => s.split(' ').at(-1))).toEqual(['old', 'old', 'old', 'new']);
    client.close();
    rmSync(dir, { recursive: true });
  });
});

describe('KubeClient watch', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('lists in pages, watches from the list version, follows bookmarks, relists on 410 and reports what vanished', async () => {
    let watches = 0;
    let lists = 0;
    const from: string[] = [];
    const api = await fakeApi((_req, res, url) => {
      if (url.searchParams.get('watch') !== '1') {
        if (!url.searchParams.get('continue')) lists++;
        if (lists === 1) {
          // First list, two pages.
          if (!url.searchParams.get('continue'))
            return json(res, 200, {
              metadata: { resourceVersion: '10', continue: 'p2' },
              items: [obj('a', '5')],
            });
          return json(res, 200, { metadata: { resourceVersion: '10' }, items: [obj('b', '6')] });
        }
        // The relist: b is gone, c is new.
        return json(res, 200, {
          metadata: { resourceVersion: '30' },
          items: [obj('a', '21'), obj('c', '22')],
        });
      }
      watches++;
      from.push(url.searchParams.get('resourceVersion') ?? '');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const send = (e: unknown) => res.write(`${JSON.stringify(e)}\n`);
      if (watches === 1) {
        expect(url.searchParams.get('allowWatchBookmarks')).toBe('true');
        send({ type: 'MODIFIED', object: obj('a', '11') });
        send({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } });
        res.end();
      } else if (watches === 2) {
        send({
          type: 'ERROR',
          object: { code: 410, reason: 'Expired', message: 'too old resource version' },
        });
        res.end();
      } else {
        send({ type: 'ADDED', object: obj('d', '31') });
      }
    });
    server = api.server;
    const client = new KubeClient({ server: api.url }, {});
    const events: string[] = [];
    const abort = new AbortController();
    let synced = 0;
    const errors: unknown[] = [];
    const done = client.watch<ReturnType<typeof obj>>(
      '/apis/x/v1/things',
      (e: WatchEvent<ReturnType<typeof obj>>) => {
        events.push(`${e.type} ${e.object.metadata.name}`);
        if (e.object.metadata.name === 'd') abort.abort();
      },
      abort.signal,
      { pageSize: 1, onSynced: () => synced++, onError: (err) => errors.push(err) },
    );
    await done;
    expect(events).toEqual([
      'ADDED a',
      'ADDED b',
      'MODIFIED a',
      'MODIFIED a',
      'ADDED c',
      'DELETED b',
      'ADDED d',
    ]);
    expect(from).toEqual(['10', '15', '30']);
    expect(synced).toBe(2);
    expect(errors.map((e) => (e as KubeError).status)).toEqual([410]);
    expect(api.seen.filter((s) => s.includes('limit=1')).map((s) => s.split(' ')[1])).toEqual([
      '/apis/x/v1/things?limit=1',
      '/apis/x/v1/things?limit=1&continue=p2',
      '/apis/x/v1/things?limit=1',
    ]);
    client.close();
    server.closeAllConnections();
  });
});

describe('KubeClient watch, as client-go tests its reflector', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const named = (name: string, rv: string, note: string) => ({ ...obj(name, rv), note });
  type Noted = ReturnType<typeof named>;

  /** Watches until `until` says so; answers the events as `TYPE name note`. */
  async function watchUntil(
    client: KubeClient,
    until: (seen: string[]) => boolean,
    errors: unknown[] = [],
  ): Promise<string[]> {
    const seen: string[] = [];
    const abort = new AbortController();
    await client.watch<Noted>(
      '/apis/x/v1/things',
      (e) => {
        seen.push(`${e.type} ${e.object.metadata.name} ${e.object.note ?? ''}`.trim());
        if (until(seen)) abort.abort();
      },
      abort.signal,
      { onError: (err) => errors.push(err) },
    );
    return seen;
  }

  const emptyList = (res: ServerResponse, rv = '1') =>
    json(res, 200, { metadata: { resourceVersion: rv }, items: [] });

  it('decodes frames split at any byte, multi-byte characters included', async () => {
    const notes = ['é', 'naïve ☃ 中文', '😀 done'];
    const body = Buffer.from(
      [
        ...notes.map((note, i) =>
          JSON.stringify({ type: 'ADDED', object: named(`t${i}`, `${i + 2}`, note) }),
        ),
        JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } }),
        '',
      ].join('\n'),
    );
    const api = await fakeApi((_req, res, url) => {
      if (url.searchParams.get('watch') !== '1') return emptyList(res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      void (async () => {
        // Every byte its own read; a byte followed by a continuation byte waits longer, so the split
        // inside a character surely reaches the client as two reads.
        for (let i = 0; i < body.length; i++) {
          res.write(body.subarray(i, i + 1));
          await pause((body[i + 1]! & 0xc0) === 0x80 ? 15 : 1);
        }
      })();
    });
    server = api.server;
    const client = new KubeClient({ server: api.url });
    const seen = await watchUntil(client, (s) => s.length === notes.length);
    expect(seen).toEqual(notes.map((note, i) => `ADDED t${i} ${note}`));
    client.close();
    server.closeAllConnections();
  }, 20_000);

  it('ends a watch whose event is over maxEvent bytes (counted in bytes), after the smaller ones before it', async () => {
    const small = JSON.stringify({ type: 'ADDED', object: named('small', '2', 'é'.repeat(100)) });
    // 600 characters, over 1,200 bytes.
    const large = JSON.stringify({ type: 'ADDED', object: named('large', '3', 'é'.repeat(600)) });
    const api = await fakeApi((_req, res, url) => {
      if (url.searchParams.get('watch') !== '1') return emptyList(res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(`${small}\n${large}\n`);
    });
    server = api.server;
    const client = new KubeClient({ server: api.url }, { maxEvent: 1000 });
    const seen: string[] = [];
    const abort = new AbortController();
    const errors: unknown[] = [];
    await client.watch<Noted>(
      '/apis/x/v1/things',
      (e) => void seen.push(`${e.type} ${e.object.metadata.name}`),
      abort.signal,
      { onError: (err) => (errors.push(err), abort.abort()) },
    );
    expect(seen).toEqual(['ADDED small']);
    expect(errors).toEqual([expect.objectContaining({ reason: 'EventTooLarge' })]);
    client.close();
    server.closeAllConnections();
  });

  it('a watch answered 410 Gone relists and watches from the new list', async () => {
    const from: string[] = [];
    let lists = 0;
    const api = await fakeApi((_req, res, url) => {
      if (url.searchParams.get('watch') !== '1') return emptyList(res, String(++lists * 100));
      from.push(url.searchParams.get('resourceVersion') ?? '');
      if (from.length === 1) return json(res, 410, { kind: 'Status', reason: 'Expired', code: 410 });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: named('a', '201', '') })}\n`);
    });
    server = api.server;
    const client = new KubeClient({ server: api.url });
    const errors: unknown[] = [];
    expect(await watchUntil(client, (s) => s.length === 1, errors)).toEqual(['ADDED a']);
    expect([lists, from]).toEqual([2, ['100', '200']]);
    expect(errors.map((e) => (e as KubeError).status)).toEqual([410]);
    client.close();
    server.closeAllConnections();
  });

  it('a connection broken mid-frame resumes from the last event delivered, bookmarks included', async () => {
    const from: string[] = [];
    const api = await fakeApi((req, res, url) => {
      if (url.searchParams.get('watch') !== '1') return emptyList(res, '10');
      from.push(url.searchParams.get('resourceVersion') ?? '');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (from.length === 1) {
        res.write(`${JSON.stringify({ type: 'ADDED', object: named('a', '11', '') })}\n`);
        res.write(
          `${JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '14' } } })}\n`,
        );
        res.write('{"type":"ADDED","object":{"metadata":{"na');
        // The server goes away with half a frame sent.
        setTimeout(() => req.socket.destroy(), 50);
      } else if (from.length === 2) {
        res.write(`${JSON.stringify({ type: 'ADDED', object: named('b', '15', '') })}\n`);
        res.end(); // a clean end of the watch (its timeoutSeconds): watch again from b
      } else res.write(`${JSON.stringify({ type: 'ADDED', object: named('c', '16', '') })}\n`);
    });
    server = api.server;
    const client = new KubeClient({ server: api.url });
    const errors: unknown[] = [];
    expect(await watchUntil(client, (s) => s.length === 3, errors)).toEqual([
      'ADDED a',
      'ADDED b',
      'ADDED c',
    ]);
    expect(from).toEqual(['10', '14', '15']);
    expect(errors).toHaveLength(1);
    client.close();
    server.closeAllConnections();
  });

  it('a watch refused 401 reads the rotated token file again, and a changed file is read at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-token-'));
    const file = join(dir, 'token');
    const mtime = new Date(1_700_000_000_000);
    writeFileSync(file, 'one\n');
    utimesSync(file, mtime, mtime);
    let valid = 'one';
    const api = await fakeApi((req, res, url) => {
      if (req.headers.authorization !== `Bearer ${valid}`)
        return json(res, 401, { kind: 'Status', code: 401 });
      if (url.searchParams.get('watch') !== '1') return emptyList(res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`${JSON.stringify({ type: 'ADDED', object: named('x', '2', valid) })}\n`);
      if (valid === 'one') {
        // Rotated with the same modification time: only a 401 makes the client read the file again.
        writeFileSync(file, 'two\n');
        utimesSync(file, mtime, mtime);
        valid = 'two';
      } else if (valid === 'two') {
        // Rotated with a new modification time: read before the next watch, no 401 needed.
        writeFileSync(file, 'three\n');
        valid = 'three';
      }
    });
    server = api.server;
    const client = new KubeClient({ server: api.url, tokenFile: file });
    const errors: unknown[] = [];
    const seen = await watchUntil(client, (s) => s.length === 3, errors);
    expect(seen).toEqual(['ADDED x one', 'ADDED x two', 'ADDED x three']);
    expect(errors.map((e) => (e as KubeError).status)).toEqual([401]);
    expect(api.seen.map((s) => s.split(' ').at(-1))).toEqual(['one', 'one', 'one', 'two', 'three']);
    client.close();
    rmSync(dir, { recursive: true });
  });
});

describe('isTransientKubeError', () => {
  it.each([
    [new KubeError(429, 'TooManyRequests', 'x'), true],
    [new KubeError(503, 'ServiceUnavailable', 'x'), true],
    [new KubeError(504, 'Timeout', 'x'), true],
    [new KubeError(500, 'InternalError', 'x', 'etcdserver: leader changed'), true],
    [new KubeError(403, 'Forbidden', 'x', 'pods "p" is forbidden: exceeded quota: q'), true],
    [new KubeError(0, '', 'connection refused'), true],
    [new KubeError(0, 'TooLarge', 'answer over 10 bytes'), false],
    [new KubeError(404, 'NotFound', 'x'), false],
    [new KubeError(422, 'Invalid', 'x'), false],
    [new KubeError(403, 'Forbidden', 'x', 'cannot patch'), false],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), true],
    [new Error('socket hang up'), true],
    [new Error('Unexpected token'), false],
  ])('%p → %s', (err, transient) => {
    expect(isTransientKubeError(err)).toBe(transient);
  });
});
