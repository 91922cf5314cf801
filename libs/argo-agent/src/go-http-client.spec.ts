import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { goPost, GoHttpError, keepsCredentials, MAX_REPLY_BYTES, replyTooLarge } from './go-http-client.js';

describe("keepsCredentials: Go's rule for Authorization on a redirect", () => {
  it.each([
    ['http://127.0.0.1:4355/a', 'http://127.0.0.1:4356/b', true], // another port, same host name
    ['http://plugin.local/a', 'http://api.plugin.local/b', true], // a subdomain
    ['http://plugin.local/a', 'http://other.local/b', false],
    ['http://api.plugin.local/a', 'http://plugin.local/b', false], // the parent domain
    ['http://127.0.0.1/a', 'http://localhost/b', false],
  ])('%s → %s keeps it: %p', (from, to, kept) => {
    expect(keepsCredentials(new URL(from), new URL(to))).toBe(kept);
  });
});

describe('goPost reads a reply up to MAX_REPLY_BYTES', () => {
  /** 64 MiB of JSON whitespace then `{}`, plain or gzip (a bomb: 64 KiB on the wire), written as fast as read. */
  async function bigReply(
    gzip: boolean,
  ): Promise<{ url: string; written: () => number; close(): Promise<void> }> {
    let written = 0;
    const body = Buffer.concat([Buffer.alloc(64 * 1024 * 1024, 0x20), Buffer.from('{}')]);
    const payload = gzip ? gzipSync(body) : body;
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json', ...(gzip && { 'Content-Encoding': 'gzip' }) });
      const stream = Readable.from([payload], { objectMode: false });
      stream.on('data', (c: Buffer) => (written += c.length));
      stream.pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      written: () => written,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
  }

  it.each([
    ['plain', 'readFirstValue', false],
    ['plain', 'readAll', false],
    ['gzip', 'readFirstValue', true],
  ] as const)('a %s reply, %s: refused (not retried) past 4 MiB', async (_name, read, gzip) => {
    const up = await bigReply(gzip);
    try {
      const res = await goPost(up.url, '{}', {}, 10_000);
      const err = (await res[read]().catch((e: unknown) => e)) as GoHttpError;
      res.close();
      expect(err).toBeInstanceOf(GoHttpError);
      expect(err.transient).toBe(false);
      expect(err.message).toBe(replyTooLarge());
      expect(MAX_REPLY_BYTES).toBe(4 * 1024 * 1024);
    } finally {
      await up.close();
    }
  });
});

describe('goPost reads a reply split anywhere', () => {
  it('keeps a character split between two writes whole (readFirstValue and readAll)', async () => {
    const reply = Buffer.from(JSON.stringify({ node: { phase: 'Succeeded', message: 'déployé ✅' } }));
    const cut = reply.indexOf(Buffer.from('✅')) + 1;
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(reply.subarray(0, cut));
      setTimeout(() => res.end(reply.subarray(cut)), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      for (const read of ['readFirstValue', 'readAll'] as const) {
        const res = await goPost(url, '{}', {}, 10_000);
        expect(JSON.parse((await res[read]()).toString('utf8'))).toEqual({
          node: { phase: 'Succeeded', message: 'déployé ✅' },
        });
        res.close();
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('goPost asks its WriteGuard once connected, right before writing', () => {
  async function countingServer(): Promise<{ url: string; seen: () => number; close(): Promise<void> }> {
    let seen = 0;
    const server = createServer((req, res) => {
      seen++;
      req.resume();
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      seen: () => seen,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }
  /** Holds the thread, as a process paused (SIGSTOP) or frozen right after it started the request. */
  const freeze = (ms: number): void => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('a right that ends while the connection is made: nothing reaches the server, and the error is not retried', async () => {
    const up = await countingServer();
    try {
      const endsAt = performance.now() + 50;
      const mayWrite = () => (performance.now() > endsAt ? 'the shard went to another replica' : undefined);
      expect(mayWrite()).toBeUndefined(); // what a check at the start of the call sees
      const call = goPost(up.url, '{}', {}, 5000, MAX_REPLY_BYTES, mayWrite).catch((e: unknown) => e);
      freeze(100);
      const err = (await call) as GoHttpError;
      await new Promise((r) => setTimeout(r, 100));
      expect(up.seen()).toBe(0);
      expect(err).toBeInstanceOf(GoHttpError);
      expect(err.transient).toBe(false);
      expect(err.message).toBe(`Post "${up.url}": not sent: the shard went to another replica`);
    } finally {
      await up.close();
    }
  });

  it('a right that holds: the request goes out as without a guard', async () => {
    const up = await countingServer();
    try {
      let asked = 0;
      const res = await goPost(up.url, '{}', {}, 5000, MAX_REPLY_BYTES, () => void asked++);
      expect((await res.readAll()).toString()).toBe('{}');
      res.close();
      expect([up.seen(), asked]).toEqual([1, 1]);
    } finally {
      await up.close();
    }
  });
});
