// https like the real Argo Server (--secure, self-signed by default): a throwaway certificate is made with
// openssl for 127.0.0.1 and used as the server's certificate and, for ARGO_CA_FILE / ARGO_CA_CERT, as the CA.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emit, RECORD, startEmitterFixture, type EmitterFixture } from './support.js';

let dir: string;
let tls: { cert: Buffer; key: Buffer };
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'event-emitter-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
    ].concat([
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]),
    { stdio: 'ignore' },
  );
  tls = { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('workflow-event over https', () => {
  let f: EmitterFixture;
  afterEach(() => f.close());
  const secure = (env: Record<string, string>) =>
    startEmitterFixture({ tls }, { ARGO_SECURE: 'true', ...env });

  it('ARGO_INSECURE_SKIP_VERIFY=true accepts the self-signed certificate', async () => {
    f = await secure({ ARGO_INSECURE_SKIP_VERIFY: 'true' });
    expect(f.endpoint.url).toMatch(/^https:/);
    expect((await f.h.execute(emit({ headers: RECORD }))).body.node?.phase).toBe('Succeeded');
    expect(f.endpoint.received()).toHaveLength(1);
  });

  it('ARGO_CA_FILE trusts the private CA', async () => {
    f = await secure({ ARGO_CA_FILE: join(dir, 'cert.pem') });
    expect((await f.h.execute(emit({ headers: RECORD }))).body.node?.phase).toBe('Succeeded');
  });

  it('ARGO_CA_CERT (PEM text, e.g. from a ConfigMap) trusts the private CA', async () => {
    f = await secure({ ARGO_CA_CERT: tls.cert.toString() });
    expect((await f.h.execute(emit({ headers: RECORD }))).body.node?.phase).toBe('Succeeded');
  });

  it('an untrusted certificate fails at once with a hint (no retries), and nothing is sent', async () => {
    f = await secure({});
    const res = await f.h.execute(emit({ headers: RECORD }));
    expect(res.body.node?.phase).toBe('Failed');
    expect(res.body.node?.message).toMatch(
      /the server's TLS certificate is not trusted: set ARGO_CA_FILE or ARGO_CA_CERT to its CA, or ARGO_INSECURE_SKIP_VERIFY=true for a test server\)$/,
    );
    expect(f.endpoint.received()).toEqual([]);
  });
});
