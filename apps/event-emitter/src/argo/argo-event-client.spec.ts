import { loadEnv, UpstreamError } from '@app/plugin-kit';
import { StandInServer } from '@app/local-agent';
import { ArgoEnv } from '../config/argo.env.js';
import { ArgoEventClient } from './argo-event-client.js';

describe('ArgoEventClient', () => {
  let argo: StandInServer;
  let elsewhere: StandInServer;
  beforeAll(async () => {
    argo = new StandInServer('argo').route('POST', /^\/.*$/, () => ({ status: 200, body: {} }));
    elsewhere = new StandInServer('elsewhere').route('POST', /^\/.*$/, () => ({ status: 200, body: {} }));
    await argo.start();
    await elsewhere.start();
  });
  afterAll(async () => {
    await argo.close();
    await elsewhere.close();
  });
  beforeEach(() => {
    argo.resetCalls();
    elsewhere.resetCalls();
  });

  const client = (extra: Record<string, string> = {}) =>
    new ArgoEventClient(
      loadEnv(ArgoEnv, {
        ARGO_SERVER: new URL(argo.url).host,
        ARGO_TOKEN: 'Bearer secret-token-123456',
        ARGO_SECURE: 'false',
        ...extra,
      }),
    );

  it('posts JSON to the events path under ARGO_BASE_HREF with the token and the headers', async () => {
    const reply = await client({ ARGO_BASE_HREF: '/argo/' }).send({
      namespace: 'argo',
      discriminator: '',
      payload: { a: 1 },
      headers: { 'x-a': ['1', '2'] },
    });
    expect(reply).toEqual({ status: 200, data: {}, path: '/argo/api/v1/events/argo/' });
    const [call] = argo.calls;
    expect(call).toMatchObject({ method: 'POST', path: '/argo/api/v1/events/argo/', body: { a: 1 } });
    expect(call!.headers.authorization).toBe('Bearer secret-token-123456');
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers['x-a']).toBe('1, 2');
  });

  it('a Basic ARGO_TOKEN keeps its scheme', async () => {
    await client({ ARGO_TOKEN: 'Basic dXNlcjpwYXNz' }).send({
      namespace: 'argo',
      discriminator: 'd',
      payload: {},
      headers: {},
    });
    expect(argo.calls[0]!.headers.authorization).toBe('Basic dXNlcjpwYXNz');
  });

  it('a namespace or discriminator that looks like an absolute URL never sends the token to another host', async () => {
    const c = client();
    await c
      .send({ namespace: `${elsewhere.url}/x`, discriminator: '', payload: {}, headers: {} })
      .catch(() => undefined);
    await c
      .send({ namespace: 'argo', discriminator: `${elsewhere.url}/`, payload: {}, headers: {} })
      .catch(() => undefined);
    expect(elsewhere.calls).toEqual([]);
    expect(argo.calls.map((c) => c.path)).toEqual([
      `/api/v1/events/${encodeURIComponent(`${elsewhere.url}/x`)}/`,
      `/api/v1/events/argo/${encodeURIComponent(`${elsewhere.url}/`)}`,
    ]);
  });

  it('the client refuses absolute URLs even with the https agent configured', async () => {
    const c = client({ ARGO_SECURE: 'true', ARGO_INSECURE_SKIP_VERIFY: 'true' });
    const axios = (c as unknown as { client: { post(url: string, body: unknown): Promise<unknown> } }).client;
    await axios.post(`${elsewhere.url}/steal`, {}).catch(() => undefined);
    expect(elsewhere.calls).toEqual([]);
  });

  it('a refused connection is a transient UpstreamError without the token', async () => {
    const down = new ArgoEventClient(
      loadEnv(ArgoEnv, {
        ARGO_SERVER: '127.0.0.1:1',
        ARGO_TOKEN: 'secret-token-123456',
        ARGO_SECURE: 'false',
      }),
    );
    const err = await down
      .send({ namespace: 'argo', discriminator: '', payload: {}, headers: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).transient).toBe(true);
    expect((err as UpstreamError).message).toBe('argo-server: POST /api/v1/events/argo/: ECONNREFUSED');
  });
});
