// The emulator's own limits (not the real server's): body size, the received-events log, what is read when.
import { request } from 'node:http';
import { endpoint, send, TOKEN } from './support.js';

const EVENT = '/api/v1/events/argo/limits';
const MiB = 1024 * 1024;

/** Sends only the headers of a request that announces `length` bytes, and waits for the reply. */
function headersOnly(
  url: string,
  length: number,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        path: EVENT,
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(length) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('body limit', () => {
  it('a body over maxBodyBytes is 429 ResourceExhausted naming the limit; at the limit it is read', async () => {
    const ep = await endpoint([], { maxBodyBytes: 64 });
    const fits = `{"s":"${'x'.repeat(64 - 8)}"}`;
    expect((await send(ep.url, EVENT, { body: fits })).status).toBe(200);
    const res = await send(ep.url, EVENT, { body: `${fits} ` });
    expect([res.status, res.json()]).toEqual([
      429,
      { code: 8, message: 'grpc: received message larger than max (> 64)' },
    ]);
    expect(res.headers.connection).toBe('close');
  });

  it('a Content-Length over the limit is refused before any body byte arrives; so is a wrong token', async () => {
    const ep = await endpoint([]);
    const big = await headersOnly(ep.url, 50 * MiB, { Authorization: `Bearer ${TOKEN}` });
    expect(big.status).toBe(429);
    const wrong = await headersOnly(ep.url, 10, { Authorization: 'Bearer wrong' });
    expect(wrong.status).toBe(401);
    // A webhook request to a namespace without webhook clients is refused before its body too.
    const webhook = await headersOnly(ep.url, 10, {});
    expect([webhook.status, webhook.text]).toEqual([403, '{"message": "failed to process webhook request"}']);
    expect(ep.received()).toEqual([]);
  });

  it("defaults to 4 MiB and goes up to the real server's 100 MiB, not beyond", async () => {
    expect((await endpoint([])).settings.maxBodyBytes).toBe(4 * MiB);
    expect((await endpoint([], { maxBodyBytes: 100 * MiB })).settings.maxBodyBytes).toBe(100 * MiB);
    await expect(endpoint([], { maxBodyBytes: 100 * MiB + 1 })).rejects.toThrow(
      /max body must be 1 byte to 104857600 bytes/,
    );
  });
});

describe('the received-events log is bounded', () => {
  const count = async (url: string, query = '') =>
    (await send(url, `/__stand-in/count${query}`, { method: 'GET' })).json();

  it('keeps the newest receivedLogSize events; the total stays exact, a filtered count says what was dropped', async () => {
    const ep = await endpoint([], { receivedLogSize: 3 });
    for (const id of [1, 2, 3, 4, 5]) await send(ep.url, EVENT, { body: { id } });
    expect(ep.received().map((e) => (e.payload as { id: number }).id)).toEqual([3, 4, 5]);
    expect(await count(ep.url)).toEqual({ name: 'argo-server', count: 5 });
    expect(await count(ep.url, '?discriminator=limits')).toEqual({
      name: 'argo-server',
      count: 3,
      dropped: 2,
    });
  });

  it('keeps at most 16 MiB of bodies', async () => {
    const ep = await endpoint([], { maxBodyBytes: 4 * MiB });
    const body = `"${'x'.repeat(3 * MiB)}"`;
    for (let i = 0; i < 8; i++) expect((await send(ep.url, EVENT, { body })).status).toBe(200);
    const kept = ep.received();
    expect(kept.length).toBe(5);
    expect(kept.reduce((n, e) => n + e.bytes, 0)).toBeLessThanOrEqual(16 * MiB);
    expect(await count(ep.url)).toEqual({ name: 'argo-server', count: 8 });
  });
});
