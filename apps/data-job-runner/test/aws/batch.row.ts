import { AwsError } from '../../stand-ins/aws/aws-json-stand-in.js';
import { BatchStandIn } from '../../stand-ins/batch/batch.stand-in.js';
import { TERMINATE_REASON } from '../../src/providers/batch/batch.provider.js';
import { outputs } from '../support.js';
import type { AwsBackend } from './aws-backend-table.js';

const job = (queue: string, extra: Record<string, unknown> = {}) => ({
  batch: { jobQueue: queue, jobDefinition: 'etl:3', ...extra },
});
const jobsNamed = (b: BatchStandIn, prefix: string) => b.jobs.filter((j) => j.jobName.startsWith(prefix));

/** SubmitJob calls before the restart. */
let submits = 0;

export const batchRow: AwsBackend<BatchStandIn> = {
  label: 'AWS Batch',
  prefix: 'BATCH',
  accessKeyId: 'AKIAE2EAWSBATCHJOBS0',
  standIn: (keys) => new BatchStandIn({ keys: [keys] }),
  setup: (b) => {
    b.addQueue({ name: 'default' });
    b.addQueue({ name: 'long', lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'SUCCEEDED' }] });
    b.addQueue({
      name: 'oom',
      lifecycle: [{ state: 'RUNNABLE' }, { state: 'FAILED', message: 'Essential container in task exited' }],
      failure: { exitCode: 137, reason: 'OutOfMemoryError: Container killed due to memory usage' },
    });
  },
  firstCall: 'ListJobs',
  success: {
    title: 'submits the job with its overrides intact, named and tagged from the key, and waits for success',
    body: () =>
      job('default', {
        name: 'nightly',
        parameters: { date: '2024-01-01', limit: 10 },
        arraySize: 4,
        command: ['python', 'etl.py', '--dry-run', false],
        environment: { STAGE: 'prod' },
        attemptDurationSeconds: 3600,
        retryAttempts: 2,
        tags: { team: 'data' },
      }),
    check: (b, { final }) => {
      const [submitted] = jobsNamed(b, 'nightly-');
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
      expect(b.operationCalls.slice(0, 2)).toEqual(['ListJobs', 'SubmitJob']);
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
    },
  },
  failures: [
    {
      title: 'fails naming the status reason, the container reason and the exit code',
      body: () => job('oom'),
      message:
        /^AWS Batch run [\w-]+ failed \(FAILED\): Essential container in task exited; OutOfMemoryError: Container killed due to memory usage; exit code 137/,
    },
  ],
  once: {
    title:
      'keeps a step to one job: concurrent calls, then a restart that finds it by name and tag past a page of others',
    body: () => job('long', { name: 'once' }),
    beforeRestart: ({ s: b }) => {
      const [ours] = jobsNamed(b, 'once-');
      // Someone resubmitted the job by hand, with the same name and without the key tag, more than a page of times.
      b.addForeignJobs('long', ours.jobName, 120);
      submits = b.count('SubmitJob');
    },
    followToEnd: false,
    check: ({ s: b }) => {
      expect(jobsNamed(b, 'once-')).toHaveLength(121);
      expect(b.count('SubmitJob')).toBe(submits);
      expect(b.count('ListJobs')).toBeGreaterThanOrEqual(3); // the lookup went past the first page
    },
  },
  throttling: {
    title: 'rides out 429 throttling as the SDK retries it, and 5xx past its retries',
    body: () => job('default'),
    start: { operation: 'SubmitJob', type: 'TooManyRequestsException' },
    poll: {
      operation: 'DescribeJobs',
      error: new AwsError('ServerException', 'Internal error', 500),
      message: /batch: DescribeJobs → 500 ServerException: Internal error; retrying/,
    },
  },
  timeout: {
    title: 'terminates the job on timeout, then fails',
    body: () => job('long', { name: 'late' }),
    message: /^AWS Batch run [\w-]+ timed out after 1s and was cancelled/,
    check: (b) => expect(jobsNamed(b, 'late-')[0].terminated).toBe(TERMINATE_REASON),
  },
  invalid: [
    {
      body: () => job('default', { arraySize: 1 }),
      message: 'data-job: invalid config: batch.arraySize: must not be less than 2',
    },
  ],
  refused: {
    body: () => job('nosuchqueue'),
    message: 'batch: ListJobs → 400 ClientException: Job queue nosuchqueue does not exist.',
  },
};
