import { AwsError } from '../stand-ins/aws/aws-json-stand-in.js';
import { EmrServerlessStandIn } from '../stand-ins/emr-serverless/emr-serverless.stand-in.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  SECRETS,
  sharedSidecar,
  sleep,
  uniqueWorkflow,
  withSidecar,
} from './support.js';

const KEYS = { accessKeyId: 'AKIAE2EEMRSERVERLESS', secretAccessKey: SECRETS.awsSecretKey };
const ROLE = 'arn:aws:iam::123456789012:role/emr-job-runtime';
const env = (emr: EmrServerlessStandIn): Record<string, string> => ({
  EMR_SERVERLESS_REGION: emr.region,
  EMR_SERVERLESS_ENDPOINT_URL: emr.url,
  EMR_SERVERLESS_ACCESS_KEY_ID: KEYS.accessKeyId,
  EMR_SERVERLESS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
});

describe('data-job: EMR Serverless', () => {
  const emr = new EmrServerlessStandIn({ keys: [KEYS] });
  const apps: Record<string, string> = {};
  const h = sharedSidecar(
    [emr],
    () => env(emr),
    () => {
      apps.etl = emr.addApplication({ name: 'etl' });
      apps.long = emr.addApplication({
        name: 'long',
        lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'SUCCESS' }],
      });
      apps.broken = emr.addApplication({
        name: 'broken',
        lifecycle: [
          { state: 'PENDING' },
          {
            state: 'FAILED',
            message: 'Job failed, please check complete logs in configured logging destination. ExitCode: 1.',
          },
        ],
      });
    },
  );
  const spark = (applicationId: string, extra: Record<string, unknown> = {}) => ({
    emrServerless: {
      applicationId,
      executionRoleArn: ROLE,
      sparkSubmit: {
        entryPoint: 's3://jobs/etl.py',
        entryPointArguments: ['--date', '2024-01-01', '--limit', 10],
      },
      ...extra,
    },
  });

  it('starts the job run with its arguments intact and a client token from the key, and waits for success', async () => {
    const body = spark(apps.etl, {
      name: 'orders etl',
      tags: { team: 'data', tier: 1 },
      executionTimeoutMinutes: 60,
    });
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob(body, { workflow: uniqueWorkflow() }),
      emr.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    const run = emr.jobRuns.at(-1)!;
    expect(run.request).toEqual({
      clientToken: expect.stringMatching(/^[0-9a-f]{64}$/),
      executionRoleArn: ROLE,
      jobDriver: {
        sparkSubmit: {
          entryPoint: 's3://jobs/etl.py',
          entryPointArguments: ['--date', '2024-01-01', '--limit', '10'],
        },
      },
      tags: { team: 'data', tier: '1' },
      executionTimeoutMinutes: 60,
      name: 'orders etl',
    });
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    expect(outputs(final)).toEqual({
      provider: 'emrServerless',
      runId: run.jobRunId,
      url: `https://eu-west-1.console.aws.amazon.com/emr/home?region=eu-west-1#/serverless-applications/${apps.etl}/job-runs/${run.jobRunId}`,
      state: 'succeeded',
      upstreamState: 'SUCCESS',
      duration: expect.any(String),
      applicationId: apps.etl,
    });
    expectNoSecrets(h, replies, [SECRETS.awsSecretKey]);
  });

  it('fails a job run naming the state and its stateDetails', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob(spark(apps.broken), { workflow: uniqueWorkflow() }),
      emr.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^EMR Serverless run \w+ failed \(FAILED\): Job failed, please check complete logs/,
    );
  });

  it('keeps a step to one job run across concurrent calls and a restart (the client token)', async () => {
    const request = dataJob(spark(apps.etl), { workflow: uniqueWorkflow() });
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    await withSidecar(env(emr), async (restarted) => {
      const { final } = await pollToEnd(restarted, request, emr.server);
      expect([final.node?.phase, outputs(final).runId]).toEqual(['Succeeded', runId]);
    });
    const token = emr.jobRuns.find((r) => r.jobRunId === runId)!.clientToken;
    expect(emr.jobRuns.filter((r) => r.clientToken === token)).toHaveLength(1);
  });

  it('rides out 429 throttling as the SDK retries it, and 5xx past its retries', async () => {
    const request = dataJob(spark(apps.etl), { workflow: uniqueWorkflow() });
    emr.throttle('StartJobRun', 2);
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    expect(emr.count('StartJobRun')).toBeGreaterThanOrEqual(3);
    emr.failNext('GetJobRun', new AwsError('InternalServerException', 'Request processing failed', 500), 3);
    expect((await h.execute(request)).body.node?.message).toMatch(
      /emrServerless: GetJobRun → 500 InternalServerException: Request processing failed; retrying/,
    );
    const { final } = await pollToEnd(h, request, emr.server);
    expect(final.node?.phase).toBe('Succeeded');
  });

  it('cancels the job run on timeout, then fails', async () => {
    const request = dataJob(
      { ...spark(apps.long), timeout: '1s', pollInterval: '5s' },
      { workflow: uniqueWorkflow() },
    );
    expect((await h.execute(request)).body.requeue).toBe('1s');
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(/^EMR Serverless run \w+ timed out after 1s and was cancelled/);
    expect(emr.count('CancelJobRun')).toBe(1);
    expect(emr.jobRuns.at(-1)!.cancelled).toBe(true);
  });

  it('fails naming the field of a bad body, and the AWS reason of a refused call', async () => {
    const bad = await h.execute(
      dataJob({ emrServerless: { applicationId: apps.etl, executionRoleArn: ROLE } }),
    );
    expect(bad.body.node).toEqual({
      phase: 'Failed',
      message: 'data-job: invalid config: emrServerless: exactly one of sparkSubmit and hive is required',
    });
    const role = await h.execute(dataJob(spark(apps.etl, { executionRoleArn: 'emr-role' })));
    expect(role.body.node?.message).toBe(
      'data-job: invalid config: emrServerless.executionRoleArn: must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)',
    );
    const missing = await h.execute(dataJob(spark('00nosuchapp'), { workflow: uniqueWorkflow() }));
    expect(missing.body.node?.message).toBe(
      'emrServerless: StartJobRun → 404 ResourceNotFoundException: Application 00nosuchapp does not exist.',
    );
  });

  it('names the variable to set when the body picks an unconfigured connection', async () => {
    const reply = await h.execute(dataJob({ ...spark(apps.etl), connection: 'prod' }));
    expect(reply.body.node?.message).toContain('EMR_SERVERLESS_PROD_REGION');
  });
});
