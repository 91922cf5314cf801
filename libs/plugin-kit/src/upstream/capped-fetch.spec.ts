import { StandInServer } from '@app/local-agent';
import { capResponseBody } from './capped-fetch.js';
import { ReplyTooLargeError } from './upstream-scope.js';

describe('capResponseBody', () => {
  const upstream = new StandInServer('big').route('GET', '/small', () => ({ body: { ok: true } }));
  const bounds = { maxBodyBytes: 64 * 1024, maxValues: 10_000 };
  beforeAll(() => upstream.start());
  afterAll(() => upstream.close());

  it('passes a reply within the limit through, status and headers kept', async () => {
    const res = capResponseBody(await fetch(`${upstream.url}/small`), { maxBodyBytes: 1024, maxValues: 10 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('refuses a declared Content-Length above the limit before reading', async () => {
    upstream.faults.add({ kind: 'huge', bytes: 1024 * 1024, declareLength: true });
    const res = await fetch(`${upstream.url}/small`);
    expect(() => capResponseBody(res, bounds)).toThrow(ReplyTooLargeError);
  });

  it('stops a streamed body as soon as it passes the limit', async () => {
    upstream.faults.add({ kind: 'huge', bytes: 64 * 1024 * 1024 });
    const res = capResponseBody(await fetch(`${upstream.url}/small`), bounds);
    await expect(res.text()).rejects.toThrow('reply larger than 64 KiB');
  });

  it.each([
    ['wide', 'reply holds more than 10000 JSON values and keys'],
    ['deep', 'reply nested deeper than 64 levels'],
  ] as const)(
    'stops a %s JSON body as soon as it would build more than the scope allows',
    async (shape, message) => {
      upstream.faults.add({ kind: 'dense', shape, bytes: 60 * 1024 });
      const res = capResponseBody(await fetch(`${upstream.url}/small`), bounds);
      await expect(res.text()).rejects.toThrow(message);
    },
  );
});
