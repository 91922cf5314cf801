import { generateKeyPairSync } from 'node:crypto';
import { CloudRunStandIn } from '../stand-ins/index.js';
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
const JOBS = '/v2/projects/etl-prod-1234/locations/europe-west1/jobs';
const KEY_LINES = keys.privateKey.split('\n').filter((l) => l.length > 40);
const container = {
  name: 'job',
  image: 'europe-docker.pkg.dev/etl-prod-1234/jobs/orders:1.4',
  args: ['--all'],
};

describe('data-job: Cloud Run jobs', () => {
  const run = new CloudRunStandIn({
    project: 'etl-prod-1234',
    region: 'europe-west1',
    serviceAccount: { clientEmail: ACCOUNT, keyId: 'k-0a1b2c', publicKey: keys.publicKey },
    jobs: [
      { name: 'orders', containers: [container] },
      {
        name: 'long',
        containers: [container],
        lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'SUCCEEDED' }],
      },
      {
        name: 'broken',
        containers: [container],
        lifecycle: [
          { state: 'PENDING' },
          { state: 'FAILED', message: 'Task broken-x7k2p-task0 failed with exit code 2 after 3 retries.' },
        ],
      },
    ],
  });
  const env = (): Record<string, string> => ({
    CLOUD_RUN_PROJECT: 'etl-prod-1234',
    CLOUD_RUN_REGION: 'europe-west1',
    CLOUD_RUN_URL: run.url,
    CLOUD_RUN_CREDENTIALS: JSON.stringify({
      type: 'service_account',
      project_id: 'etl-prod-1234',
      private_key_id: 'k-0a1b2c',
      private_key: keys.privateKey,
      client_email: ACCOUNT,
      token_uri: run.tokenUri,
    }),
  });
  const h = sharedSidecar([run], env);
  const secrets = () => [...KEY_LINES, ...run.tokens.issued.keys()];

  it('looks for the execution key, runs the job once with the overrides and the key as an env override, and waits', async () => {
    const overrides = { containerOverrides: [{ args: ['--day', '2024-01-01'] }], taskCount: 2 };
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob({ cloudRun: { job: 'orders', overrides } }, { workflow: uniqueWorkflow() }),
      run.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    expect(run.server.count('POST', '/token')).toBe(1);
    expect(requestsPerCall[0]).toBe(4); // token, executions.list, jobs.run, executions.get
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    const [execution] = run.executions;
    expect(execution.overrides).toEqual({
      containerOverrides: [
        {
          args: ['--day', '2024-01-01'],
          env: [{ name: 'ARGO_EXECUTION_KEY', value: expect.stringMatching(/^[0-9a-f]{64}$/) }],
        },
      ],
      taskCount: 2,
    });
    expect(execution.containers[0].args).toEqual(['--day', '2024-01-01']);
    expect(outputs(final)).toEqual({
      provider: 'cloudRun',
      runId: execution.id,
      url: `https://console.cloud.google.com/run/jobs/executions/details/europe-west1/${execution.id}/tasks?project=etl-prod-1234`,
      state: 'succeeded',
      upstreamState: 'CONDITION_SUCCEEDED',
      duration: expect.any(String),
    });
    expect(replies[0].node?.message).toMatch(
      /^Cloud Run run orders-[0-9a-f]{5} is (queued|running) \(CONDITION_/,
    );
    expectNoSecrets(h, replies, secrets());
  });

  it('finds its execution again after a restart, also past the first page of the job’s executions', async () => {
    const request = dataJob({ cloudRun: { job: 'long' } }, { workflow: uniqueWorkflow() });
    const first = await h.execute(request);
    const runId = outputs(first.body).runId;
    await withSidecar(env(), async (restarted) => {
      expect(outputs((await restarted.execute(request)).body).runId).toBe(runId);
    });
    // 150 newer executions of the job push ours onto the second page of 100.
    await withSidecar(env(), async (other) => {
      for (let i = 0; i < 150; i++)
        run.executions.unshift({
          ...run.executions.find((e) => e.id === runId)!,
          id: `long-n${i}`,
          overrides: {},
          containers: [container],
        });
      const listsBefore = run.server.count('GET', `${JOBS}/long/executions`);
      expect(outputs((await other.execute(request)).body).runId).toBe(runId);
      expect(run.server.count('GET', `${JOBS}/long/executions`) - listsBefore).toBe(2);
    });
    const ours = outputs((await h.execute(request)).body).runId;
    expect(
      run.executions.filter((e) =>
        e.containers[0].env?.some((v) => v.name === 'ARGO_EXECUTION_KEY' && ours === e.id),
      ),
    ).toHaveLength(1);
    expect(run.executions.filter((e) => e.job === 'long' && e.overrides.containerOverrides)).toHaveLength(1);
  });

  it('fails with the Completed condition’s message', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ cloudRun: { job: 'broken' } }, { workflow: uniqueWorkflow() }),
      run.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^Cloud Run run broken-[0-9a-f]{5} failed \(CONDITION_FAILED\/NON_ZERO_EXIT_CODE\): Task broken-x7k2p-task0 failed with exit code 2 after 3 retries\. \(https:/,
    );
  });

  it('cancels the execution on timeout, and rides out 429 with Retry-After', async () => {
    const request = dataJob({ cloudRun: { job: 'long' }, timeout: '1s' }, { workflow: uniqueWorkflow() });
    const first = await h.execute(request);
    const runId = outputs(first.body).runId;
    run.rateLimitRoute('GET', `${JOBS}/long/executions/${runId}`, 6, {
      error: { code: 429, message: 'Quota exceeded for quota metric', status: 'RESOURCE_EXHAUSTED' },
    });
    const limited = await h.execute(request);
    expect(limited.body.node?.message).toMatch(
      /429 Too Many Requests: Quota exceeded for quota metric \(RESOURCE_EXHAUSTED\); retrying in 6s/,
    );
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(
      /^Cloud Run run long-[0-9a-f]{5} timed out after 1s and was cancelled \(last state CONDITION_RECONCILING\)/,
    );
    expect(run.execution(runId)!.cancelled).toBe(true);
    expect(run.server.count('POST', `${JOBS}/long/executions/${runId}:cancel`)).toBe(1);
  });

  it('returns at once with wait: false', async () => {
    const { replies, final } = await pollToEnd(
      h,
      dataJob({ cloudRun: { job: 'long' }, wait: false }, { workflow: uniqueWorkflow() }),
      run.server,
    );
    expect(replies).toHaveLength(1);
    expect(final.node?.phase).toBe('Succeeded');
    expect(outputs(final)).toMatchObject({ provider: 'cloudRun', state: 'running' });
  });

  it('fails with the API’s error body for a job that does not exist', async () => {
    const reply = await h.execute(dataJob({ cloudRun: { job: 'missing' } }, { workflow: uniqueWorkflow() }));
    expect(reply.body.node?.phase).toBe('Failed');
    expect(reply.body.node?.message).toBe(
      `cloudRun: GET ${JOBS}/missing/executions → 404 Not Found: Resource 'missing' of kind 'JOB' in region 'europe-west1' in project 'etl-prod-1234' does not exist. (NOT_FOUND)`,
    );
  });
});
