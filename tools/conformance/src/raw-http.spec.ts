import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { bigBodyProbe } from './raw-http.js';

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
