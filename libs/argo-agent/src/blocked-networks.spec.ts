import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlockedNetworks } from './blocked-networks.js';
import { goRequest, GoHttpError } from './go-http-client.js';

const SETTING = 'AGENT_HTTP_BLOCKED_NETWORKS';
const parse = (spec: string) => BlockedNetworks.parse(spec, SETTING);

describe('BlockedNetworks', () => {
  it('reads CIDRs (none: none) and names each bad entry', () => {
    expect(parse('none').blocked.empty).toBe(true);
    expect(parse(' 127.0.0.0/8, fe80::/10 ').problems).toEqual([]);
    expect(parse('127.0.0.1,10.0.0.0/33,::1/129,host/8').problems).toEqual([
      `${SETTING}: "127.0.0.1" is not a network such as 169.254.0.0/16 or fe80::/10`,
      `${SETTING}: "10.0.0.0/33" is not a network such as 169.254.0.0/16 or fe80::/10`,
      `${SETTING}: "::1/129" is not a network such as 169.254.0.0/16 or fe80::/10`,
      `${SETTING}: "host/8" is not a network such as 169.254.0.0/16 or fe80::/10`,
    ]);
  });

  it('finds the network of an address: IPv4, IPv6 (bracketed too), IPv4 mapped into IPv6', () => {
    const { blocked } = parse('127.0.0.0/8,169.254.0.0/16,::1/128,fe80::/10');
    expect(blocked.holding('169.254.169.254')).toBe('169.254.0.0/16');
    expect(blocked.holding('127.1.2.3')).toBe('127.0.0.0/8');
    expect(blocked.holding('[::1]')).toBe('::1/128');
    expect(blocked.holding('fe80::1')).toBe('fe80::/10');
    expect(blocked.holding('::ffff:169.254.169.254')).toBe('169.254.0.0/16');
    // As a URL writes it: new URL('http://[::ffff:127.0.0.1]/').hostname is [::ffff:7f00:1].
    expect(blocked.holding(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe('127.0.0.0/8');
    expect(blocked.holding('10.0.0.1')).toBeUndefined();
    expect(blocked.holding('2001:db8::1')).toBeUndefined();
  });
});

describe('goRequest with blocked networks', () => {
  let server: Server;
  let port: number;
  let calls = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      calls++;
      if (req.url === '/hop') res.writeHead(302, { Location: `http://127.0.0.2:${port}/inside` }).end();
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());
  beforeEach(() => (calls = 0));

  const get = (url: string, spec: string) =>
    goRequest({ method: 'GET', url, headers: {}, blocked: parse(spec).blocked }).then(
      (r) => (r.close(), r.status),
      (err: GoHttpError) => err,
    );

  it('refuses an address written in the URL before connecting, with a Go-worded, not retried error', async () => {
    const err = await get(`http://127.0.0.1:${port}/`, '127.0.0.0/8');
    expect(err).toBeInstanceOf(GoHttpError);
    expect(err).toMatchObject({
      message: `Get "http://127.0.0.1:${port}/": dial tcp 127.0.0.1:${port}: not allowed: 127.0.0.0/8 is in ${SETTING}`,
      transient: false,
    });
    expect(calls).toBe(0);
  });

  it('refuses a name by what it resolves to (localhost)', async () => {
    const err = await get(`http://localhost:${port}/`, '127.0.0.0/8,::1/128');
    expect(String((err as GoHttpError).message)).toMatch(
      new RegExp(
        `^Get "http://localhost:${port}/": dial tcp (127\\.0\\.0\\.1|\\[::1\\]):${port}: not allowed: `,
      ),
    );
    expect(calls).toBe(0);
  });

  it('refuses a redirect into a blocked network (the first hop is allowed)', async () => {
    const err = await get(`http://127.0.0.1:${port}/hop`, '127.0.0.2/32');
    expect((err as GoHttpError).message).toBe(
      `Get "http://127.0.0.2:${port}/inside": dial tcp 127.0.0.2:${port}: not allowed: 127.0.0.2/32 is in ${SETTING}`,
    );
    expect(calls).toBe(1);
  });

  it('connects where nothing is listed', async () => {
    expect(await get(`http://127.0.0.1:${port}/`, '169.254.0.0/16')).toBe(200);
    expect(await get(`http://127.0.0.1:${port}/`, 'none')).toBe(200);
  });
});
