import { AwsError } from '../../stand-ins/aws/aws-json-stand-in.js';
import { EmrServerlessStandIn } from '../../stand-ins/emr-serverless/emr-serverless.stand-in.js';
import { outputs } from '../support.js';
import type { AwsBackend } from './aws-backend-table.js';

const ROLE = 'arn:aws:iam::123456789012:role/emr-job-runtime';
/** Application ids by name, as the stand-in made them. */
const apps: Record<string, string> = {};
const spark = (app: string, extra: Record<string, unknown> = {}) => ({
  emrServerless: {
    applicationId: apps[app] ?? app,
    executionRoleArn: ROLE,
    sparkSubmit: {
      entryPoint: 's3://jobs/etl.py',
      entryPointArguments: ['--date', '2024-01-01', '--limit', 10],
    },
    ...extra,
  },
});

export const emrServerlessRow: AwsBackend<EmrServerlessStandIn> = {
  label: 'EMR Serverless',
  prefix: 'EMR_SERVERLESS',
  accessKeyId: 'AKIAE2EEMRSERVERLESS',
  standIn: (keys) => new EmrServerlessStandIn({ keys: [keys] }),
  setup: (emr) => {
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
  firstCall: 'StartJobRun',
  success: {
    title:
      'starts the job run with its arguments intact and a client token from the key, and waits for success',
    body: () =>
      spark('etl', { name: 'orders etl', tags: { team: 'data', tier: 1 }, executionTimeoutMinutes: 60 }),
    check: (emr, { final }) => {
      const run = emr.jobRuns.find((r) => r.request.name === 'orders etl')!;
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
      expect(outputs(final)).toEqual({
        provider: 'emrServerless',
        runId: run.jobRunId,
        url: `https://eu-west-1.console.aws.amazon.com/emr/home?region=eu-west-1#/serverless-applications/${apps.etl}/job-runs/${run.jobRunId}`,
        state: 'succeeded',
        upstreamState: 'SUCCESS',
        duration: expect.any(String),
        applicationId: apps.etl,
      });
    },
  },
  failures: [
    {
      title: 'fails a job run naming the state and its stateDetails',
      body: () => spark('broken'),
      message: /^EMR Serverless run \w+ failed \(FAILED\): Job failed, please check complete logs/,
    },
  ],
  once: {
    title: 'keeps a step to one job run across concurrent calls and a restart (the client token)',
    body: () => spark('etl'),
    followToEnd: true,
    check: ({ s: emr }, runId) => {
      const token = emr.jobRuns.find((r) => r.jobRunId === runId)!.clientToken;
      expect(emr.jobRuns.filter((r) => r.clientToken === token)).toHaveLength(1);
    },
  },
  throttling: {
    title: 'rides out 429 throttling as the SDK retries it, and 5xx past its retries',
    body: () => spark('etl'),
    start: { operation: 'StartJobRun' },
    afterStart: (emr) => expect(emr.count('StartJobRun')).toBeGreaterThanOrEqual(3),
    poll: {
      operation: 'GetJobRun',
      error: new AwsError('InternalServerException', 'Request processing failed', 500),
      message: /emrServerless: GetJobRun → 500 InternalServerException: Request processing failed; retrying/,
    },
  },
  timeout: {
    title: 'cancels the job run on timeout, then fails',
    body: () => spark('long'),
    message: /^EMR Serverless run \w+ timed out after 1s and was cancelled/,
    check: (emr) => {
      expect(emr.count('CancelJobRun')).toBe(1);
      expect(emr.jobRuns.at(-1)!.cancelled).toBe(true);
    },
  },
  invalid: [
    {
      body: () => ({ emrServerless: { applicationId: apps.etl, executionRoleArn: ROLE } }),
      message: 'data-job: invalid config: emrServerless: exactly one of sparkSubmit and hive is required',
    },
    {
      body: () => spark('etl', { executionRoleArn: 'emr-role' }),
      message:
        'data-job: invalid config: emrServerless.executionRoleArn: must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)',
    },
  ],
  refused: {
    body: () => spark('00nosuchapp'),
    message:
      'emrServerless: StartJobRun → 404 ResourceNotFoundException: Application 00nosuchapp does not exist.',
  },
};
