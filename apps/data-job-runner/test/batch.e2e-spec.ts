import { AwsError } from '../stand-ins/aws/aws-json-stand-in.js';
import { BatchStandIn } from '../stand-ins/batch/batch.stand-in.js';
import { TERMINATE_REASON } from '../src/providers/batch/batch.provider.js';
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

const KEYS = { accessKeyId: 'AKIAE2EAWSBATCHJOBS0', secretAccessKey: SECRETS.awsSecretKey };
const env = (b: BatchStandIn): Record<string, string> => ({
  BATCH_REGION: b.region,
  BATCH_ENDPOINT_URL: b.url,
  BATCH_ACCESS_KEY_ID: KEYS.accessKeyId,
  BATCH_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
});

describe('data-job: AWS Batch', () => {
  const aws = new BatchStandIn({ keys: [KEYS] });
  const queues: Record<string, string> = {};
  const h = sharedSidecar(
    [aws],
    () => env(aws),
    () => {
      queues.default = aws.addQueue({ name: 'default' });
      queues.long = aws.addQueue({
        name: 'long',
        lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'SUCCEEDED' }],
      });
      queues.oom = aws.addQueue({
        name: 'oom',
        lifecycle: [
          { state: 'RUNNABLE' },
          { state: 'FAILED', message: 'Essential container in task exited' },
        ],
        failure: { exitCode: 137, reason: 'OutOfMemoryError: Container killed due to memory usage' },
      });
    },
  );
  const job = (queue: string, extra: Record<string, unknown> = {}) => ({
    batch: { jobQueue: queue, jobDefinition: 'etl:3', ...extra },
  });
  const jobsNamed = (prefix: string) => aws.jobs.filter((j) => j.jobName.startsWith(prefix));

  it('submits the job with its overrides intact, named and tagged from the key, and waits for success', async () => {
    const body = job('default', {
      name: 'nightly',
      parameters: { date: '2024-01-01', limit: 10 },
      arraySize: 4,
      command: ['python', 'etl.py', '--dry-run', false],
      environment: { STAGE: 'prod' },
      attemptDurationSeconds: 3600,
      retryAttempts: 2,
      tags: { team: 'data' },
    });
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob(body, { workflow: uniqueWorkflow() }),
      aws.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    const [submitted] = jobsNamed('nightly-');
    expect(submitted.request).toEqual({
      jobName: expect.stringMatching(/^nightly-[0-9a-f]{32}$/),
      jobQueue: 'default',
      jobDefinition: 'etl:3',
      parameters: { date: '2024-01-01', limit: '10' },
      arrayProperties: { size: 4 },
      containerOverrides: {
        command: ['python', 'etl.py', '--dry-run', 'false'],
        environment: [{ name: 'STAGE', value: 'prod' }],
      },
      timeout: { attemptDurationSeconds: 3600 },
      retryStrategy: { attempts: 2 },
      tags: { team: 'data', 'argo-execution-key': expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(aws.operationCalls.slice(0, 2)).toEqual(['ListJobs', 'SubmitJob']);
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    expect(outputs(final)).toEqual({
      provider: 'batch',
      runId: submitted.jobId,
      url: `https://eu-west-1.console.aws.amazon.com/batch/home?region=eu-west-1#jobs/detail/${submitted.jobId}`,
      state: 'succeeded',
      upstreamState: 'SUCCEEDED',
      duration: expect.any(String),
      jobName: submitted.jobName,
      logStreamName: `etl/default/${submitted.jobId.replace(/-/g, '')}`,
    });
    expectNoSecrets(h, replies, [SECRETS.awsSecretKey]);
  });

  it('fails naming the status reason, the container reason and the exit code', async () => {
    const { final } = await pollToEnd(h, dataJob(job('oom'), { workflow: uniqueWorkflow() }), aws.server);
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^AWS Batch run [\w-]+ failed \(FAILED\): Essential container in task exited; OutOfMemoryError: Container killed due to memory usage; exit code 137/,
    );
  });

  it('keeps a step to one job: concurrent calls, then a restart that finds it by name and tag past a page of others', async () => {
    const request = dataJob(job('long', { name: 'once' }), { workflow: uniqueWorkflow() });
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    const [ours] = jobsNamed('once-');
    // Someone resubmitted the job by hand, with the same name and without the key tag, more than a page of times.
    aws.addForeignJobs('long', ours.jobName, 120);
    const submits = aws.count('SubmitJob');
    await withSidecar(env(aws), async (restarted) => {
      const reply = await restarted.execute(request);
      expect(outputs(reply.body).runId).toBe(runId);
    });
    expect(jobsNamed('once-')).toHaveLength(121);
    expect(aws.count('SubmitJob')).toBe(submits);
    expect(aws.count('ListJobs')).toBeGreaterThanOrEqual(3); // the lookup went past the first page
  });

  it('rides out 429 throttling as the SDK retries it, and 5xx past its retries', async () => {
    const request = dataJob(job('default'), { workflow: uniqueWorkflow() });
    aws.throttle('SubmitJob', 2, 'TooManyRequestsException');
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    aws.failNext('DescribeJobs', new AwsError('ServerException', 'Internal error', 500), 3);
    expect((await h.execute(request)).body.node?.message).toMatch(
      /batch: DescribeJobs → 500 ServerException: Internal error; retrying/,
    );
    const { final } = await pollToEnd(h, request, aws.server);
    expect(final.node?.phase).toBe('Succeeded');
  });

  it('terminates the job on timeout, then fails', async () => {
    const request = dataJob(
      { ...job('long', { name: 'late' }), timeout: '1s', pollInterval: '5s' },
      { workflow: uniqueWorkflow() },
    );
    expect((await h.execute(request)).body.requeue).toBe('1s');
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(/^AWS Batch run [\w-]+ timed out after 1s and was cancelled/);
    const [late] = jobsNamed('late-');
    expect(late.terminated).toBe(TERMINATE_REASON);
  });

  it('fails naming the field of a bad body, and the AWS reason of a refused call', async () => {
    const bad = await h.execute(dataJob(job('default', { arraySize: 1 })));
    expect(bad.body.node).toEqual({
      phase: 'Failed',
      message: 'data-job: invalid config: batch.arraySize: must not be less than 2',
    });
    const missing = await h.execute(dataJob(job('nosuchqueue'), { workflow: uniqueWorkflow() }));
    expect(missing.body.node?.message).toBe(
      'batch: ListJobs → 400 ClientException: Job queue nosuchqueue does not exist.',
    );
  });

  it('names the variable to set when the body picks an unconfigured connection', async () => {
    const reply = await h.execute(dataJob({ ...job('default'), connection: 'prod' }));
    expect(reply.body.node?.message).toContain('BATCH_PROD_REGION');
  });
});
