import { AwsError } from '../../stand-ins/aws/aws-json-stand-in.js';
import { GlueStandIn } from '../../stand-ins/glue/glue.stand-in.js';
import { outputs } from '../support.js';
import type { AwsBackend } from './aws-backend-table.js';

const runsOf = (g: GlueStandIn, job: string) => g.runs.filter((r) => r.jobName === job);
/** StartJobRun calls before the restart. */
let starts = 0;

export const glueRow: AwsBackend<GlueStandIn> = {
  label: 'Glue',
  prefix: 'GLUE',
  accessKeyId: 'AKIAE2EAWSGLUEJOBS00',
  standIn: (keys) => new GlueStandIn({ keys: [keys] }),
  setup: (g) => {
    g.addJob({ name: 'orders etl' });
    g.addJob({ name: 'long', lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'SUCCEEDED' }] });
    g.addJob({
      name: 'broken',
      lifecycle: [
        { state: 'RUNNING' },
        { state: 'FAILED', message: 'AnalysisException: Path does not exist: s3://in/2024-01-01' },
      ],
    });
  },
  firstCall: 'GetJobRuns',
  success: {
    title: 'starts the run with its arguments intact and the key as an argument, and waits for success',
    body: () => ({
      glue: {
        jobName: 'orders etl',
        arguments: { '--date': '2024-01-01', '--limit': 10 },
        workerType: 'G.1X',
        numberOfWorkers: 4,
        timeoutMinutes: 60,
      },
    }),
    check: (g, { final }) => {
      const run = runsOf(g, 'orders etl').at(-1)!;
      expect(run.request).toEqual({
        JobName: 'orders etl',
        Arguments: {
          '--date': '2024-01-01',
          '--limit': '10',
          '--argo-execution-key': expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        Timeout: 60,
        WorkerType: 'G.1X',
        NumberOfWorkers: 4,
      });
      expect(g.operationCalls.slice(0, 2)).toEqual(['GetJobRuns', 'StartJobRun']);
      expect(outputs(final)).toEqual({
        provider: 'glue',
        runId: run.id,
        url: `https://eu-west-1.console.aws.amazon.com/gluestudio/home?region=eu-west-1#/job/orders%20etl/run/${run.id}`,
        state: 'succeeded',
        upstreamState: 'SUCCEEDED',
        duration: expect.any(String),
        jobName: 'orders etl',
      });
    },
  },
  failures: [
    {
      title: 'fails a run naming the state and its ErrorMessage',
      body: () => ({ glue: { jobName: 'broken' } }),
      message: /^Glue run jr_\w+ failed \(FAILED\): AnalysisException: Path does not exist/,
    },
  ],
  once: {
    title:
      'keeps a step to one run: concurrent calls, then a restart that finds it past a page of other runs',
    body: () => ({ glue: { jobName: 'long', arguments: { '--date': '2024-01-02' } } }),
    beforeRestart: ({ s: g }) => {
      g.addForeignRuns('long', 250);
      starts = g.count('StartJobRun');
    },
    followToEnd: false,
    check: ({ s: g }) => {
      expect(g.count('StartJobRun')).toBe(starts);
      expect(g.count('GetJobRuns')).toBeGreaterThanOrEqual(3); // the lookup read a second page
    },
  },
  throttling: {
    title: 'rides out throttling as the SDK retries it, and 5xx past its retries',
    body: () => ({ glue: { jobName: 'orders etl' } }),
    start: { operation: 'StartJobRun' },
    poll: {
      operation: 'GetJobRun',
      error: new AwsError('InternalServiceException', 'Internal service error', 500),
      message: /glue: GetJobRun → 500 InternalServiceException: Internal service error; retrying/,
    },
  },
  timeout: {
    title: 'stops the run on timeout (BatchStopJobRun), then fails',
    body: () => ({ glue: { jobName: 'long' } }),
    message: /^Glue run jr_\w+ timed out after 1s and was cancelled/,
    check: (g) => {
      expect(g.count('BatchStopJobRun')).toBe(1);
      expect(runsOf(g, 'long').filter((r) => r.stopped)).toHaveLength(1);
    },
  },
  invalid: [
    {
      body: () => ({ glue: { jobName: 'orders etl', arguments: { date: '2024-01-01' } } }),
      message: 'data-job: invalid config: glue.arguments.date: must start with --',
    },
  ],
  refused: {
    body: () => ({ glue: { jobName: 'nosuchjob' } }),
    message:
      'glue: GetJobRuns → 400 EntityNotFoundException: Failed to start job run due to missing metadata',
  },
};
