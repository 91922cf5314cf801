import { generateKeyPairSync } from 'node:crypto';
import { snowflakeRequestId } from '../src/job/run-keys.js';
import { SnowflakeStandIn } from '../stand-ins/index.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  sharedSidecar,
  sleep,
  uniqueWorkflow,
  withSidecar,
} from './support.js';

const PASSPHRASE = 'snowflake-e2e-passphrase-4f3e2d';
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: PASSPHRASE },
});
const STATEMENTS = '/api/v2/statements';
const KEY_LINES = keys.privateKey.split('\n').filter((l) => l.length > 40);

describe('data-job: Snowflake', () => {
  const snowflake = new SnowflakeStandIn({
    account: 'myorg-analytics',
    user: 'argo_runner',
    publicKey: keys.publicKey,
  });
  const env = (): Record<string, string> => ({
    SNOWFLAKE_ACCOUNT: 'myorg-analytics',
    SNOWFLAKE_URL: snowflake.url,
    SNOWFLAKE_USER: 'argo_runner',
    SNOWFLAKE_PRIVATE_KEY: keys.privateKey,
    SNOWFLAKE_PRIVATE_KEY_PASSPHRASE: PASSPHRASE,
  });
  const h = sharedSidecar([snowflake], env, () =>
    snowflake
      .script({
        match: 'orders_daily',
        lifecycle: [{ state: 'running', polls: 2 }, { state: 'success' }],
        rows: [['1234']],
      })
      .script({
        match: 'missing_table',
        lifecycle: [{ state: 'running' }, { state: 'failed' }],
        failure: {
          code: '002003',
          sqlState: '42S02',
          message: "SQL compilation error:\nObject 'MISSING_TABLE' does not exist or not authorized.",
        },
      })
      .script({ match: 'long_merge', lifecycle: [{ state: 'running', polls: 1000 }, { state: 'success' }] }),
  );
  const secrets = (): string[] => [
    PASSPHRASE,
    ...KEY_LINES,
    ...snowflake.server.calls.map((c) => String(c.headers.authorization).slice('Bearer '.length)),
  ];

  it('submits the statement once, asynchronously, with a request id and its bindings, and waits', async () => {
    const request = dataJob(
      {
        snowflake: {
          statement: 'INSERT INTO orders_daily SELECT * FROM raw.orders WHERE day = ?',
          bindings: ['2024-01-01'],
          warehouse: 'TRANSFORM_WH',
          database: 'ANALYTICS',
          schema: 'PUBLIC',
          role: 'TRANSFORMER',
          queryTag: 'argo',
        },
      },
      { workflow: uniqueWorkflow() },
    );
    const { replies, final, requestsPerCall } = await pollToEnd(h, request, snowflake.server);
    expect(final.node?.phase).toBe('Succeeded');
    expect(requestsPerCall.every((n) => n === 1)).toBe(true);
    const [statement] = snowflake.statementsMatching('orders_daily');
    expect(statement.request).toEqual({
      statement: 'INSERT INTO orders_daily SELECT * FROM raw.orders WHERE day = ?',
      bindings: { '1': { type: 'TEXT', value: '2024-01-01' } },
      warehouse: 'TRANSFORM_WH',
      database: 'ANALYTICS',
      schema: 'PUBLIC',
      role: 'TRANSFORMER',
      parameters: { QUERY_TAG: 'argo' },
    });
    const submit = snowflake.server.calls.find((c) => c.method === 'POST' && c.path === STATEMENTS)!;
    expect(Object.fromEntries(new URLSearchParams(submit.query))).toEqual({
      requestId: statement.requestId,
      retry: 'true',
      async: 'true',
    });
    expect(submit.headers['x-snowflake-authorization-token-type']).toBe('KEYPAIR_JWT');
    expect(outputs(final)).toEqual({
      provider: 'snowflake',
      runId: statement.handle,
      url: `https://app.snowflake.com/myorg/analytics/#/compute/history/queries/${statement.handle}/detail`,
      state: 'succeeded',
      upstreamState: 'success (090001)',
      duration: expect.any(String),
      numRows: '1',
    });
    expect(replies[0].node?.message).toMatch(
      /^Snowflake run [0-9a-f-]{36} is running \(in progress \(333334\)\) \(https:/,
    );
    expect(final.node?.message).toMatch(/^Snowflake run [0-9a-f-]{36} succeeded \(success \(090001\)\) in /);
    expectNoSecrets(h, replies, secrets());
  });

  it('fails with the upstream code, SQL state and message', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ snowflake: { statement: 'SELECT * FROM missing_table' } }, { workflow: uniqueWorkflow() }),
      snowflake.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^Snowflake run [0-9a-f-]{36} failed \(failed \(002003\/42S02\)\): SQL compilation error:\nObject 'MISSING_TABLE' does not exist or not authorized\. \(https:\/\/app\.snowflake\.com\//,
    );
  });

  it('finds its statement again after a restart and for concurrent calls, through requestId and retry=true', async () => {
    const workflow = uniqueWorkflow();
    const request = dataJob({ snowflake: { statement: 'MERGE INTO long_merge USING x' } }, { workflow });
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    await withSidecar(env(), async (restarted) => {
      const again = await restarted.execute(request);
      expect(outputs(again.body).runId).toBe(runId);
      expect(again.body.node?.phase).toBe('Running');
    });
    const ours = snowflake.statementsMatching('long_merge').filter((s) => s.handle === runId);
    expect(ours).toHaveLength(1);
    expect(snowflake.statementsMatching('long_merge')).toHaveLength(1);
    expect(ours[0].requestId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('cancels on timeout, and rides out 429 with Retry-After while polling', async () => {
    const request = dataJob(
      { snowflake: { statement: 'MERGE INTO long_merge USING y', warehouse: 'BIG_WH' }, timeout: '1s' },
      { workflow: uniqueWorkflow() },
    );
    const first = await h.execute(request);
    const handle = outputs(first.body).runId;
    snowflake.rateLimitRoute('GET', `${STATEMENTS}/${handle}`, 7, {
      code: '390201',
      message: 'Too many requests.',
    });
    const limited = await h.execute(request);
    expect(limited.body.node?.message).toMatch(
      /429 Too Many Requests: Too many requests\. \(390201\); retrying in 7s/,
    );
    expect(limited.body.requeue).toBe('7s');
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.phase).toBe('Failed');
    expect(reply.body.node?.message).toMatch(
      /^Snowflake run [0-9a-f-]{36} timed out after 1s and was cancelled \(last state in progress \(333334\)\)/,
    );
    const statement = snowflake.statements.find((s) => s.handle === handle)!;
    expect(statement.cancelled).toBe(true);
    expect(snowflake.server.count('POST', `${STATEMENTS}/${handle}/cancel`)).toBe(1);
    expect((await h.execute(request)).body.node?.phase).toBe('Failed');
    expect(snowflake.server.count('POST', `${STATEMENTS}/${handle}/cancel`)).toBe(1);
  });

  it('returns at once with wait: false', async () => {
    const { final, replies } = await pollToEnd(
      h,
      dataJob({ snowflake: { statement: 'CALL long_merge()' }, wait: false }, { workflow: uniqueWorkflow() }),
      snowflake.server,
    );
    expect(replies).toHaveLength(1);
    expect(final.node?.phase).toBe('Succeeded');
    expect(final.node?.message).toMatch(/^Snowflake run [0-9a-f-]{36} started \(in progress \(333334\)\)/);
    expect(outputs(final)).toMatchObject({ provider: 'snowflake', state: 'running' });
  });

  it('is refused with the upstream message when the key is not the registered one, and leaks no key', async () => {
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await withSidecar(
      { ...env(), SNOWFLAKE_PRIVATE_KEY: other.privateKey, SNOWFLAKE_PRIVATE_KEY_PASSPHRASE: '' },
      async (wrong) => {
        const reply = await wrong.execute(
          dataJob({ snowflake: { statement: 'SELECT 1' } }, { workflow: uniqueWorkflow() }),
        );
        expect(reply.body.node).toEqual({
          phase: 'Failed',
          message:
            'snowflake: POST /api/v2/statements → 401 Unauthorized: JWT token is invalid. [signature] (390144)',
        });
        expectNoSecrets(
          wrong,
          [reply.body],
          other.privateKey.split('\n').filter((l) => l.length > 40),
        );
      },
    );
    const bad = await h.execute(dataJob({ snowflake: { statement: 'SELECT 1', role: 'x; DROP' } }));
    expect(bad.body.node?.message).toBe(
      'data-job: invalid config: snowflake.role: must be a Snowflake identifier (letters, digits, "_" or "$")',
    );
  });

  it('masks the JWT it sent when Snowflake echoes the request in an error', async () => {
    snowflake.hostile = { mode: 'echo', status: 400 };
    try {
      const reply = await h.execute(
        dataJob({ snowflake: { statement: 'SELECT 2' } }, { workflow: uniqueWorkflow() }),
      );
      const sent = String(snowflake.server.calls.at(-1)!.headers.authorization).slice('Bearer '.length);
      expect(reply.body.node?.phase).toBe('Failed');
      expect(reply.body.node?.message).toContain('[REDACTED]');
      expectNoSecrets(h, [reply.body], [sent, ...secrets()]);
    } finally {
      snowflake.hostile = undefined;
    }
  });

  it('derives a UUID requestId from the execution key', () => {
    expect(snowflakeRequestId('0123456789abcdef0123456789abcdef'.repeat(2))).toBe(
      '01234567-89ab-4def-8123-456789abcdef',
    );
  });
});
