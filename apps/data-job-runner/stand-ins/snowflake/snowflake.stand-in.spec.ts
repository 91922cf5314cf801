// The stand-in must refuse what Snowflake refuses, or the e2e tests prove nothing.
import { createPrivateKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { snowflakeFingerprint, SnowflakeStandIn } from './snowflake.stand-in.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

function jwt(claims: Record<string, unknown> = {}, key: KeyObject = privateKey): string {
  const subject = 'MYORG-ACC.RUNNER';
  const body = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({
    iss: `${subject}.${snowflakeFingerprint(createPrivateKey(key.export({ type: 'pkcs8', format: 'pem' })))}`,
    sub: subject,
    iat: now(),
    exp: now() + 3600,
    ...claims,
  })}`;
  return `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`;
}

describe('Snowflake stand-in', () => {
  const sf = new SnowflakeStandIn({ account: 'myorg-acc', user: 'runner', publicKey, partitionRows: 2 });
  sf.script({
    match: 'many_rows',
    rows: [['1'], ['2'], ['3'], ['4'], ['5']],
    lifecycle: [{ state: 'success' }],
  });
  beforeAll(() => sf.start());
  afterAll(() => sf.close());

  const call = async (
    path: string,
    token = jwt(),
    init: { method?: string; body?: unknown; type?: string } = {},
  ) => {
    const res = await fetch(`${sf.url}${path}`, {
      method: init.method ?? 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'X-Snowflake-Authorization-Token-Type': init.type ?? 'KEYPAIR_JWT',
        'Content-Type': 'application/json',
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return {
      status: res.status,
      json: (await res.json()) as Record<string, unknown>,
      link: res.headers.get('link'),
    };
  };

  it.each([
    ['another key', () => jwt({}, other), 'signature'],
    ['another user', () => jwt({ sub: 'MYORG-ACC.ADMIN' }), 'subject'],
    ['an issuer without the fingerprint', () => jwt({ iss: 'MYORG-ACC.RUNNER' }), 'issuer'],
    ['an expired token', () => jwt({ iat: now() - 7200, exp: now() - 3600 }), 'expired'],
    ['a token valid for more than an hour', () => jwt({ exp: now() + 7200 }), 'lifetime'],
    ['no signature', () => jwt().split('.').slice(0, 2).join('.') + '.', 'signature'],
  ])('refuses %s with 390144', async (_what, token, reason) => {
    const { status, json } = await call('/api/v2/statements', token(), { body: { statement: 'SELECT 1' } });
    expect([status, json]).toEqual([401, { code: '390144', message: `JWT token is invalid. [${reason}]` }]);
  });

  it('refuses a key-pair JWT sent without its token type', async () => {
    const { status } = await call('/api/v2/statements', jwt(), {
      body: { statement: 'SELECT 1' },
      type: 'OAUTH',
    });
    expect(status).toBe(401);
  });

  it('runs a resubmitted request once only with retry=true, and refuses a requestId that is not a UUID', async () => {
    const id = randomUUID();
    const first = await call(`/api/v2/statements?requestId=${id}&async=true&retry=true`, jwt(), {
      body: { statement: 'SELECT 1' },
    });
    const again = await call(`/api/v2/statements?requestId=${id}&async=true&retry=true`, jwt(), {
      body: { statement: 'SELECT 1' },
    });
    expect(first.status).toBe(202);
    expect(again.json.statementHandle).toBe(first.json.statementHandle);
    const without = await call(`/api/v2/statements?requestId=${id}&async=true`, jwt(), {
      body: { statement: 'SELECT 1' },
    });
    expect(without.json.statementHandle).not.toBe(first.json.statementHandle);
    expect(
      (await call('/api/v2/statements?requestId=nope', jwt(), { body: { statement: 'SELECT 1' } })).status,
    ).toBe(400);
    expect(
      (await call('/api/v2/statements', jwt(), { body: { statement: 'SELECT 1', host: 'x' } })).status,
    ).toBe(400);
  });

  it('pages a result through partitions and Link headers', async () => {
    const { json } = await call('/api/v2/statements', jwt(), {
      body: { statement: 'SELECT * FROM many_rows' },
    });
    const handle = String(json.statementHandle);
    const first = await call(`/api/v2/statements/${handle}`, jwt(), { method: 'GET' });
    expect(first.status).toBe(200);
    expect(first.json.data).toEqual([['1'], ['2']]);
    expect(first.json.resultSetMetaData).toMatchObject({
      numRows: 5,
      partitionInfo: [{ rowCount: 2 }, { rowCount: 2 }, { rowCount: 1 }],
    });
    expect(first.link).toContain(`</api/v2/statements/${handle}?partition=1>; rel="next"`);
    const last = await call(`/api/v2/statements/${handle}?partition=2`, jwt(), { method: 'GET' });
    expect([last.json, last.link?.includes('rel="next"')]).toEqual([{ data: [['5']] }, false]);
  });

  it('cancels a running statement (422 000604 afterwards), and refuses to cancel a finished one', async () => {
    const { json } = await call('/api/v2/statements?async=true', jwt(), {
      body: { statement: 'CALL slow()' },
    });
    const handle = String(json.statementHandle);
    expect((await call(`/api/v2/statements/${handle}/cancel`)).json).toMatchObject({
      code: '000604',
      sqlState: '57014',
    });
    const after = await call(`/api/v2/statements/${handle}`, jwt(), { method: 'GET' });
    expect([after.status, after.json.code, after.json.sqlState]).toEqual([422, '000604', '57014']);
    expect((await call(`/api/v2/statements/${handle}/cancel`)).status).toBe(422);
  });

  it('answers 429 with Retry-After when told to', async () => {
    sf.rateLimitRoute('POST', '/api/v2/statements', 3, { code: '390201', message: 'Too many requests.' });
    const res = await fetch(`${sf.url}/api/v2/statements`, { method: 'POST' });
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '3']);
  });
});
