import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataprocStandIn, signJwt } from '../stand-ins/index.js';
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

const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const ACCOUNT = 'argo-runner@etl-prod-1234.iam.gserviceaccount.com';
const POOL =
  '//iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/k8s/providers/prod-cluster';
const CLUSTER_ISSUER =
  'https://container.googleapis.com/v1/projects/etl-prod-1234/locations/europe-west1/clusters/prod';
const cluster = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** The projected service account token a pod gets for the pool (audience: the provider). */
const subjectToken = (claims: Record<string, unknown> = {}) => {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      iss: CLUSTER_ISSUER,
      sub: 'system:serviceaccount:argo:data-job-runner',
      aud: [`https:${POOL}`],
      iat: now,
      exp: now + 3600,
      ...claims,
    },
    cluster.privateKey,
  );
};
const BATCHES = '/v1/projects/etl-prod-1234/locations/europe-west1/batches';
const KEY_LINES = keys.privateKey.split('\n').filter((l) => l.length > 40);
const PYSPARK = {
  pysparkBatch: { mainPythonFileUri: 'gs://etl/jobs/orders.py', args: ['--day', '2024-01-01'] },
};

describe('data-job: Dataproc Serverless', () => {
  const dataproc = new DataprocStandIn({
    project: 'etl-prod-1234',
    region: 'europe-west1',
    serviceAccount: { clientEmail: ACCOUNT, keyId: 'k-0a1b2c', publicKey: keys.publicKey },
    federation: {
      audience: POOL,
      issuer: CLUSTER_ISSUER,
      publicKey: cluster.publicKey,
      impersonable: [ACCOUNT],
    },
  });
  const key = (tokenUri: string, privateKey = keys.privateKey) =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'etl-prod-1234',
      private_key_id: 'k-0a1b2c',
      private_key: privateKey,
      client_email: ACCOUNT,
      token_uri: tokenUri,
    });
  const env = (): Record<string, string> => ({
    DATAPROC_PROJECT: 'etl-prod-1234',
    DATAPROC_REGION: 'europe-west1',
    DATAPROC_URL: dataproc.url,
    DATAPROC_CREDENTIALS: key(dataproc.tokenUri),
  });
  const h = sharedSidecar([dataproc], env, () => {
    dataproc.scripts.push(
      { match: 'long.py', lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'SUCCEEDED' }] },
      {
        match: 'broken.py',
        lifecycle: [
          { state: 'PENDING' },
          {
            state: 'FAILED',
            message: "Job failed with message [ModuleNotFoundError: No module named 'pandas'].",
          },
        ],
      },
    );
  });
  const pyspark = (file: string) => ({ pysparkBatch: { mainPythonFileUri: `gs://etl/jobs/${file}` } });
  const secrets = () => [...KEY_LINES, ...dataproc.tokens.issued.keys()];

  it('creates the batch once with its batchId and requestId, through a token from the key’s token_uri, and waits', async () => {
    const workflow = uniqueWorkflow();
    const request = dataJob(
      { dataproc: { batch: { ...PYSPARK, labels: { team: 'etl' } }, name: 'orders' } },
      { workflow },
    );
    const { replies, final, requestsPerCall } = await pollToEnd(h, request, dataproc.server);
    expect(final.node?.phase).toBe('Succeeded');
    expect(dataproc.server.count('POST', '/token')).toBe(1);
    expect(requestsPerCall[0]).toBe(3); // token, create, get (the create answers with an operation only)
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    const [batch] = dataproc.batches;
    expect(batch.id).toMatch(/^orders-[0-9a-f]{24}$/);
    expect(batch.requestId).toMatch(/^[0-9a-f]{40}$/);
    expect(batch.request).toEqual({ ...PYSPARK, labels: { team: 'etl', 'argo-workflow': workflow.name } });
    expect(outputs(final)).toEqual({
      provider: 'dataproc',
      runId: batch.id,
      url: `https://console.cloud.google.com/dataproc/batches/europe-west1/${batch.id}/monitoring?project=etl-prod-1234`,
      state: 'succeeded',
      upstreamState: 'SUCCEEDED',
      duration: expect.any(String),
      outputUri: expect.stringMatching(/^gs:\/\/dataproc-staging-europe-west1\//),
    });
    expect(replies[0].node?.message).toMatch(/^Dataproc run orders-[0-9a-f]{24} is running \(RUNNING\)/);
    expectNoSecrets(h, replies, secrets());
  });

  it('finds its batch again after a restart (same requestId) and when only the batchId is taken (409)', async () => {
    const request = dataJob({ dataproc: { batch: pyspark('long.py') } }, { workflow: uniqueWorkflow() });
    const first = await h.execute(request);
    const runId = outputs(first.body).runId;
    await withSidecar(env(), async (restarted) => {
      expect(outputs((await restarted.execute(request)).body).runId).toBe(runId);
    });
    dataproc.batch(runId)!.requestId = 'someone-else';
    await withSidecar(env(), async (restarted) => {
      const again = await restarted.execute(request);
      expect(outputs(again.body).runId).toBe(runId);
    });
    expect(dataproc.batches.filter((b) => b.id === runId)).toHaveLength(1);
  });

  it('fails with the batch state message', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ dataproc: { batch: pyspark('broken.py') } }, { workflow: uniqueWorkflow() }),
      dataproc.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^Dataproc run argo-[0-9a-f]{24} failed \(FAILED\): Job failed with message \[ModuleNotFoundError: No module named 'pandas'\]\. \(https:/,
    );
  });

  it('cancels the batch operation on timeout, and rides out 429 with Retry-After', async () => {
    const request = dataJob(
      { dataproc: { batch: pyspark('long.py'), name: 'slow' }, timeout: '1s' },
      { workflow: uniqueWorkflow() },
    );
    const first = await h.execute(request);
    const runId = outputs(first.body).runId;
    dataproc.rateLimitRoute('GET', `${BATCHES}/${runId}`, 6, {
      error: { code: 429, message: 'Quota exceeded for quota metric', status: 'RESOURCE_EXHAUSTED' },
    });
    const limited = await h.execute(request);
    expect(limited.body.node?.message).toMatch(
      /429 Too Many Requests: Quota exceeded for quota metric \(RESOURCE_EXHAUSTED\); retrying in 6s/,
    );
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(
      /^Dataproc run slow-[0-9a-f]{24} timed out after 1s and was cancelled \(last state RUNNING\)/,
    );
    const batch = dataproc.batch(runId)!;
    expect(batch.cancelled).toBe(true);
    expect(dataproc.server.count('POST', `/v1/${batch.operation}:cancel`)).toBe(1);
  });

  it('returns at once with wait: false', async () => {
    const { replies, final } = await pollToEnd(
      h,
      dataJob(
        { dataproc: { batch: pyspark('long.py'), name: 'nowait' }, wait: false },
        { workflow: uniqueWorkflow() },
      ),
      dataproc.server,
    );
    expect(replies).toHaveLength(1);
    expect(final.node?.phase).toBe('Succeeded');
    expect(outputs(final)).toMatchObject({
      provider: 'dataproc',
      state: 'running',
      upstreamState: 'RUNNING',
    });
  });

  it('fails with the token endpoint’s answer to a key that is not registered, and with the API’s error bodies', async () => {
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await withSidecar(
      { ...env(), DATAPROC_CREDENTIALS: key(dataproc.tokenUri, other.privateKey) },
      async (wrong) => {
        const reply = await wrong.execute(
          dataJob({ dataproc: { batch: PYSPARK } }, { workflow: uniqueWorkflow() }),
        );
        expect(reply.body.node?.phase).toBe('Failed');
        expect(reply.body.node?.message).toBe(
          'dataproc: access token → 400: invalid_grant: Invalid JWT Signature.',
        );
        expectNoSecrets(
          wrong,
          [reply.body],
          other.privateKey.split('\n').filter((l) => l.length > 40),
        );
      },
    );
    await withSidecar(env(), async (fresh) => {
      dataproc.httpErrorRoute('POST', '/token', 503);
      const reply = await fresh.execute(
        dataJob({ dataproc: { batch: PYSPARK } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node).toMatchObject({
        phase: 'Running',
        message: expect.stringMatching(/^dataproc: access token → 503: .*; retrying in \d+s/),
      });
    });
    const bad = await h.execute(
      dataJob(
        { dataproc: { batch: { ...PYSPARK, sparkBatch: { mainClass: 'x' } } } },
        { workflow: uniqueWorkflow() },
      ),
    );
    expect(bad.body.node?.message).toBe(
      `dataproc: POST ${BATCHES} → 400 Bad Request: Batch must specify exactly one of pyspark_batch, spark_batch, spark_r_batch or spark_sql_batch. (INVALID_ARGUMENT)`,
    );
  });

  it.each([
    ['with the federated token itself', undefined],
    ['impersonating the service account (IAM Credentials generateAccessToken)', ACCOUNT],
  ])(
    'runs a batch with Workload Identity Federation: the subject token read from its file and exchanged at STS, %s',
    async (_how, account) => {
      const dir = mkdtempSync(join(tmpdir(), 'dataproc-wif-'));
      const tokenFile = join(dir, 'token');
      const token = subjectToken();
      writeFileSync(tokenFile, token);
      const sts = dataproc.sts!;
      const exchangesBefore = dataproc.server.count('POST', '/sts/v1/token');
      const wif = {
        ...env(),
        DATAPROC_CREDENTIALS: JSON.stringify(dataproc.externalAccount(tokenFile, account)),
      };
      await withSidecar(wif, async (other) => {
        const { final, replies } = await pollToEnd(
          other,
          dataJob({ dataproc: { batch: pyspark('wif.py') } }, { workflow: uniqueWorkflow() }),
          dataproc.server,
        );
        expect(final.node?.phase).toBe('Succeeded');
        expect(dataproc.server.count('POST', '/sts/v1/token') - exchangesBefore).toBe(1);
        expect(sts.subjectTokens.at(-1)).toBe(token);
        const exchange = dataproc.server.calls.filter((c) => c.path === '/sts/v1/token').at(-1)!;
        expect(exchange.body).toMatchObject({
          grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
          audience: POOL,
          subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        });
        const impersonations = dataproc.server.calls.filter((c) => c.path.endsWith(':generateAccessToken'));
        expect(impersonations.map((c) => c.path)).toEqual(
          account ? [`/iam/v1/projects/-/serviceAccounts/${account}:generateAccessToken`] : [],
        );
        const used = dataproc.server.calls.filter((c) => c.path.startsWith(BATCHES)).at(-1)!;
        const bearer = String(used.headers.authorization).slice('Bearer '.length);
        expect(dataproc.tokens.issued.get(bearer)?.email).toBe(
          account ??
            'projects/123456789012/locations/global/workloadIdentityPools/k8s/subject/system:serviceaccount:argo:data-job-runner',
        );
        expectNoSecrets(other, replies, [token, ...dataproc.tokens.issued.keys()]);
      });
    },
  );

  it.each([
    [
      'a token the cluster did not sign',
      () =>
        signJwt(
          { ...JSON.parse(Buffer.from(subjectToken().split('.')[1]!, 'base64url').toString()) },
          generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
        ),
      'Invalid JWT Signature.',
    ],
    [
      'a token for another audience',
      () => subjectToken({ aud: ['https://example.com'] }),
      'The audience in ID Token does not match the expected audience.',
    ],
    [
      'an expired token',
      () => subjectToken({ exp: Math.floor(Date.now() / 1000) - 60 }),
      'The ID Token is expired.',
    ],
  ])('fails with STS’s answer to %s', async (_what, make, said) => {
    const dir = mkdtempSync(join(tmpdir(), 'dataproc-wif-'));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, make());
    const wif = { ...env(), DATAPROC_CREDENTIALS: JSON.stringify(dataproc.externalAccount(tokenFile)) };
    await withSidecar(wif, async (other) => {
      const reply = await other.execute(
        dataJob({ dataproc: { batch: pyspark('wif.py') } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node?.phase).toBe('Failed');
      expect(reply.body.node?.message).toContain(said);
    });
  });
});
