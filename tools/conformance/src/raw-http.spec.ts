import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { bigBodyProbe, rawRequest } from './raw-http.js';

describe('bigBodyProbe', () => {
  let server: Server;
  afterEach(() => server.close());

  it('keeps a character of the reply split between two reads whole', async () => {
    const reply = Buffer.from(
      'HTTP/1.1 403 Forbidden\r\nContent-Length: 11\r\nConnection: close\r\n\r\naccès nié',
    );
    const cut = reply.indexOf(Buffer.from('è')) + 1;
    server = createServer((socket) => {
      socket.once('data', () => {
        socket.write(reply.subarray(0, cut));
        // The probe keeps reading for 20 ms after the headers: the rest comes within that, as its own read.
        setTimeout(() => socket.end(reply.subarray(cut)), 5);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const result = await bigBodyProbe(base, {
      what: 'probe',
      path: '/api/v1/template.execute',
      declaredBytes: 1000,
      sentBytes: 10,
      waitMs: 2000,
    });
    expect(result).toMatchObject({ status: 403, text: 'accès nié' });
  });
});

describe('rawRequest', () => {
  it('cuts a reply over 1 MiB before the character the bound falls in, not into a U+FFFD', async () => {
    // 'x' then 2-byte characters: the 1 MiB bound falls after the first byte of an 'é'.
    const body = `x${'é'.repeat(600_000)}`;
    const server = createHttpServer((req, res) => {
      req.resume();
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const result = await rawRequest(base, { what: 'big', method: 'GET', path: '/' });
      expect(result.error).toMatch(/^reply larger than 1 MiB/);
      // 1 MiB kept: the 'x', 524,287 whole 'é' and the first byte of the next one, which is left out.
      expect(result.text).toBe(body.slice(0, 1 + (1024 * 1024 - 2) / 2));
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
