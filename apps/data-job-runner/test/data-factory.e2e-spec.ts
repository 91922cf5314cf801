import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFactoryStandIn, FEDERATED_AUDIENCE, signJwt } from '../stand-ins/index.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  sharedSidecar,
  sleep,
  startDataJob,
  uniqueWorkflow,
  withSidecar,
} from './support.js';

const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const CLIENT = '4f2a8c1e-9d3b-4e6f-a7c5-1b2d3e4f5a6b';
const WORKLOAD_CLIENT = '9e8d7c6b-5a49-4382-9170-fedcba987654';
const SUBSCRIPTION = '00000000-1111-4222-8333-444455556666';
const CLIENT_SECRET = 'adf~e2e~Q8x7W6v5U4t3S2r1P0o9N8m7L6k5J4i3';
const FACTORY = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-etl/providers/Microsoft.DataFactory/factories/adf-etl-prod`;
const CLUSTER_ISSUER = 'https://oidc.prod-aks.azure.com/9f1c2d3e-aaaa-bbbb-cccc-0123456789ab/';
const SERVICE_ACCOUNT = 'system:serviceaccount:argo:data-job-runner';
const cluster = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** A projected service account token as the Azure Workload Identity webhook mounts it. */
function serviceAccountToken(claims: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      aud: [FEDERATED_AUDIENCE],
      iss: CLUSTER_ISSUER,
      sub: SERVICE_ACCOUNT,
      iat: now,
      nbf: now,
      exp: now + 3600,
      ...claims,
    },
    cluster.privateKey,
    'k8s-key-1',
  );
}

describe('data-job: Azure Data Factory', () => {
  const adf = new DataFactoryStandIn({
    subscriptionId: SUBSCRIPTION,
    resourceGroup: 'rg-etl',
    factory: 'adf-etl-prod',
    tenantId: TENANT,
    apps: [
      { clientId: CLIENT, clientSecret: CLIENT_SECRET },
      {
        clientId: WORKLOAD_CLIENT,
        federated: [{ issuer: CLUSTER_ISSUER, subject: SERVICE_ACCOUNT, publicKey: cluster.publicKey }],
      },
    ],
    pipelines: [
      { name: 'copy_orders', parameters: ['day', 'argoExecutionKey'] },
      {
        name: 'long_merge',
        parameters: ['argoExecutionKey'],
        lifecycle: [{ state: 'InProgress', polls: 1000 }, { state: 'Succeeded' }],
      },
      {
        name: 'broken',
        parameters: ['argoExecutionKey'],
        lifecycle: [
          { state: 'Queued' },
          { state: 'InProgress' },
          {
            state: 'Failed',
            message:
              "Operation on target Copy orders failed: ErrorCode=UserErrorSourceBlobNotExists,'Type=Microsoft.DataTransfer.Common.Shared.HybridDeliveryException'",
          },
        ],
      },
      { name: 'no_key', parameters: [] },
    ],
    pageSize: 5,
  });
  const env = (): Record<string, string> => ({
    DATA_FACTORY_SUBSCRIPTION_ID: SUBSCRIPTION,
    DATA_FACTORY_RESOURCE_GROUP: 'rg-etl',
    DATA_FACTORY_FACTORY: 'adf-etl-prod',
    DATA_FACTORY_TENANT_ID: TENANT,
    DATA_FACTORY_CLIENT_ID: CLIENT,
    DATA_FACTORY_CLIENT_SECRET: CLIENT_SECRET,
    DATA_FACTORY_URL: adf.url,
    DATA_FACTORY_AUTHORITY_HOST: adf.tokens.url,
    DATA_FACTORY_CA_FILE: adf.tokens.caFile,
  });
  const h = sharedSidecar([adf], env);
  const secrets = () => [CLIENT_SECRET, ...adf.tokens.issued];
  const CREATE = `${FACTORY}/pipelines/copy_orders/createRun`;

  it('looks for the key, creates the run once with its parameters and the key, and waits', async () => {
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob(
        { dataFactory: { pipeline: 'copy_orders', parameters: { day: '2024-01-01' } } },
        { workflow: uniqueWorkflow() },
      ),
      adf.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    expect(adf.tokens.server.count('POST', `/${TENANT}/oauth2/v2.0/token`)).toBe(1);
    // queryPipelineRuns, createRun, pipelineruns/get: in the first call, or in the first few while the first
    // call's @azure/identity still loads on a busy machine; then one request per poll.
    const started = requestsPerCall.findIndex(
      (_, i) => requestsPerCall.slice(0, i + 1).reduce((a, b) => a + b) >= 3,
    );
    expect(requestsPerCall.slice(0, started + 1).reduce((a, b) => a + b)).toBe(3);
    expect(requestsPerCall.slice(started + 1).every((n) => n === 1)).toBe(true);
    expect(adf.server.count('POST', CREATE)).toBe(1);
    const [run] = adf.runs;
    expect(run.parameters).toEqual({
      day: '2024-01-01',
      argoExecutionKey: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const create = adf.server.calls.find((c) => c.path === CREATE)!;
    expect(new URLSearchParams(create.query).get('api-version')).toBe('2018-06-01');
    const query = adf.server.calls.find((c) => c.path === `${FACTORY}/queryPipelineRuns`)!;
    expect(query.body).toMatchObject({
      filters: [{ operand: 'PipelineName', operator: 'Equals', values: ['copy_orders'] }],
      lastUpdatedAfter: expect.any(String),
      lastUpdatedBefore: expect.any(String),
    });
    expect(outputs(final)).toEqual({
      provider: 'dataFactory',
      runId: run.runId,
      url: `https://adf.azure.com/en/monitoring/pipelineruns/${run.runId}?factory=${encodeURIComponent(FACTORY)}`,
      state: 'succeeded',
      upstreamState: 'Succeeded',
      duration: expect.any(String),
    });
    expect(replies[0].node?.message).toMatch(
      /^Data Factory run [0-9a-f-]{36} is (queued|running) \((Queued|InProgress)\)/,
    );
    expectNoSecrets(h, replies, secrets());
  });

  it('fails with the run’s state and message', async () => {
    const { replies, final } = await pollToEnd(
      h,
      dataJob({ dataFactory: { pipeline: 'broken' } }, { workflow: uniqueWorkflow() }),
      adf.server,
    );
    expect(
      replies.map((r) => r.node?.message?.match(/\((Queued|InProgress)\)/)?.[1]).filter(Boolean),
    ).toContain('InProgress');
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^Data Factory run [0-9a-f-]{36} failed \(Failed\): Operation on target Copy orders failed: ErrorCode=UserErrorSourceBlobNotExists/,
    );
  });

  it('creates one run for concurrent calls and finds it again after a restart, past the first page', async () => {
    const request = dataJob({ dataFactory: { pipeline: 'long_merge' } }, { workflow: uniqueWorkflow() });
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    await withSidecar(env(), async (restarted) => {
      expect(outputs((await restarted.execute(request)).body).runId).toBe(runId);
    });
    // 12 newer runs of the pipeline push ours onto the third page of 5.
    const ours = adf.run(runId)!;
    for (let i = 0; i < 12; i++)
      adf.runs.unshift({
        ...ours,
        runId: crypto.randomUUID(),
        parameters: { argoExecutionKey: `other-${i}` },
      });
    await withSidecar(env(), async (other) => {
      const before = adf.server.count('POST', `${FACTORY}/queryPipelineRuns`);
      expect(outputs((await other.execute(request)).body).runId).toBe(runId);
      expect(adf.server.count('POST', `${FACTORY}/queryPipelineRuns`) - before).toBe(3);
    });
    expect(
      adf.runs.filter((r) => r.parameters.argoExecutionKey === ours.parameters.argoExecutionKey),
    ).toHaveLength(1);
  });

  it('cancels the run on timeout, and rides out 429 with Retry-After and a 5xx', async () => {
    const request = dataJob(
      { dataFactory: { pipeline: 'long_merge' }, timeout: '1s' },
      { workflow: uniqueWorkflow() },
    );
    const runId = outputs((await h.execute(request)).body).runId;
    adf.rateLimitRoute('GET', `${FACTORY}/pipelineruns/${runId}`, 6, {
      error: { code: 'TooManyRequests', message: 'The request was throttled.' },
    });
    const limited = await h.execute(request);
    expect(limited.body.node?.message).toMatch(
      /429 Too Many Requests: The request was throttled\. \(TooManyRequests\); retrying in 6s/,
    );
    adf.httpErrorRoute('GET', `${FACTORY}/pipelineruns/${runId}`, 503);
    const unavailable = await h.execute(request);
    expect(unavailable.body.node?.phase).toBe('Running');
    expect(unavailable.body.node?.message).toMatch(/503/);
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(
      /^Data Factory run [0-9a-f-]{36} timed out after 1s and was cancelled \(last state InProgress\)/,
    );
    expect(adf.run(runId)!.cancelled).toBe(true);
    expect(adf.server.count('POST', `${FACTORY}/pipelineruns/${runId}/cancel`)).toBe(1);
  });

  it('returns at once with wait: false', async () => {
    const { replies, final } = await pollToEnd(
      h,
      dataJob({ dataFactory: { pipeline: 'long_merge' }, wait: false }, { workflow: uniqueWorkflow() }),
      adf.server,
    );
    expect(replies).toHaveLength(1);
    expect(final.node?.phase).toBe('Succeeded');
    expect(outputs(final)).toMatchObject({
      provider: 'dataFactory',
      state: expect.stringMatching(/^(queued|running)$/),
    });
  });

  it('fails with the ARM error body for a pipeline that does not declare the key parameter, or does not exist', async () => {
    const undeclared = await h.execute(
      dataJob({ dataFactory: { pipeline: 'no_key' } }, { workflow: uniqueWorkflow() }),
    );
    expect(undeclared.body.node?.phase).toBe('Failed');
    expect(undeclared.body.node?.message).toBe(
      `dataFactory: POST /pipelines/no_key/createRun → 400 Bad Request: The parameters 'argoExecutionKey' are not declared in pipeline 'no_key'. (BadRequest)`,
    );
    const missing = await h.execute(
      dataJob({ dataFactory: { pipeline: 'missing' } }, { workflow: uniqueWorkflow() }),
    );
    expect(missing.body.node?.message).toBe(
      `dataFactory: POST /pipelines/missing/createRun → 404 Not Found: Pipeline 'missing' does not exist in factory 'adf-etl-prod'. (PipelineNotFound)`,
    );
  });

  it('names a bad body field', async () => {
    const reply = await h.execute(dataJob({ dataFactory: { pipeline: 'copy/orders', parameters: 'x' } }));
    expect(reply.body.node?.phase).toBe('Failed');
    expect(reply.body.node?.message).toContain('dataFactory.pipeline: must be a Data Factory pipeline name');
    expect(reply.body.node?.message).toContain('dataFactory.parameters');
  });

  it('fails with the identity platform’s reason for a wrong client secret, and never shows the secret', async () => {
    const wrong = 'adf~e2e~WRONG0wrong1WRONG2wrong3WRONG4wr';
    await withSidecar({ ...env(), DATA_FACTORY_CLIENT_SECRET: wrong }, async (other) => {
      const reply = await other.execute(
        dataJob({ dataFactory: { pipeline: 'copy_orders' } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node?.phase).toBe('Failed');
      expect(reply.body.node?.message).toMatch(
        /^dataFactory: access token.*AADSTS7000215: Invalid client secret provided/,
      );
      expectNoSecrets(other, [reply.body], [wrong, CLIENT_SECRET]);
    });
  });

  it('runs with workload identity: the federated token file’s assertion for a token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adf-wi-'));
    const tokenFile = join(dir, 'azure-identity-token');
    const token = serviceAccountToken();
    writeFileSync(tokenFile, token);
    const { DATA_FACTORY_CLIENT_SECRET: _secret, DATA_FACTORY_CLIENT_ID: _id, ...rest } = env();
    const wi = { ...rest, AZURE_CLIENT_ID: WORKLOAD_CLIENT, AZURE_FEDERATED_TOKEN_FILE: tokenFile };
    await withSidecar(wi, async (other) => {
      const { final, replies } = await pollToEnd(
        other,
        dataJob({ dataFactory: { pipeline: 'copy_orders' } }, { workflow: uniqueWorkflow() }),
        adf.server,
      );
      expect(final.node?.phase).toBe('Succeeded');
      const grant = adf.tokens.server.calls.filter((c) => c.path.endsWith('/token')).at(-1)!;
      expect(grant.body).toMatchObject({
        client_id: WORKLOAD_CLIENT,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: token,
      });
      expectNoSecrets(other, replies, [token, ...adf.tokens.issued]);
    });
    // A token the cluster did not sign, or one for another audience, gets none.
    for (const forged of [
      signJwt(
        { ...JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) },
        generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
      ),
      serviceAccountToken({ aud: ['api://something-else'] }),
      serviceAccountToken({ exp: Math.floor(Date.now() / 1000) - 60 }),
    ]) {
      writeFileSync(tokenFile, forged);
      await withSidecar(wi, async (other) => {
        const reply = await other.execute(
          dataJob({ dataFactory: { pipeline: 'copy_orders' } }, { workflow: uniqueWorkflow() }),
        );
        expect(reply.body.node?.phase).toBe('Failed');
        expect(reply.body.node?.message).toMatch(
          /^dataFactory: access token: AADSTS(5002738: Invalid JWT token|700212: No matching federated identity record|700024: Client assertion is not within its valid time range)/,
        );
      });
    }
  });

  it('trusts the CA given as a PEM (an agent pod mounts no file), as the CA file, for both hosts', async () => {
    const { DATA_FACTORY_CA_FILE: caFile, ...rest } = env();
    const pem = { ...rest, DATA_FACTORY_CA_PEM: readFileSync(caFile, 'utf8') };
    await withSidecar(pem, async (other) => {
      const { final } = await pollToEnd(
        other,
        dataJob({ dataFactory: { pipeline: 'copy_orders' } }, { workflow: uniqueWorkflow() }),
        adf.server,
      );
      expect(final.node?.phase).toBe('Succeeded');
    });
    // Without either, the stand-ins' certificate is not trusted.
    await withSidecar(rest, async (other) => {
      const reply = await other.execute(
        dataJob({ dataFactory: { pipeline: 'copy_orders' } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node?.phase).toBe('Failed');
      // MSAL reports an untrusted authority certificate as an endpoint it could not resolve.
      expect(reply.body.node?.message).toMatch(/^dataFactory: access token: endpoints_resolution_error/);
    });
  });

  it('refuses to start with both CA settings, or a CA PEM that holds no certificate', async () => {
    const { DATA_FACTORY_CA_FILE: caFile, ...rest } = env();
    await expect(
      startDataJob({
        ...rest,
        DATA_FACTORY_CA_FILE: caFile,
        DATA_FACTORY_CA_PEM: readFileSync(caFile, 'utf8'),
      }),
    ).rejects.toThrow(/DATA_FACTORY_CA_PEM: set it or DATA_FACTORY_CA_FILE, not both/);
    await expect(startDataJob({ ...rest, DATA_FACTORY_CA_PEM: '/etc/ssl/ca.pem' })).rejects.toThrow(
      /DATA_FACTORY_CA_PEM: must hold a PEM certificate/,
    );
  });

  it('refuses to start without a credential, naming the setting', async () => {
    const { DATA_FACTORY_CLIENT_SECRET: _secret, ...rest } = env();
    await expect(startDataJob(rest)).rejects.toThrow(
      /DATA_FACTORY_CLIENT_SECRET: must be set, or a federated token file \(DATA_FACTORY_FEDERATED_IDENTITY_FILE or AZURE_FEDERATED_TOKEN_FILE, workload identity\)/,
    );
  });
});
