import { AwsError } from '../stand-ins/aws/aws-json-stand-in.js';
import { GlueStandIn } from '../stand-ins/glue/glue.stand-in.js';
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

const KEYS = { accessKeyId: 'AKIAE2EAWSGLUEJOBS00', secretAccessKey: SECRETS.awsSecretKey };
const env = (g: GlueStandIn): Record<string, string> => ({
  GLUE_REGION: g.region,
  GLUE_ENDPOINT_URL: g.url,
  GLUE_ACCESS_KEY_ID: KEYS.accessKeyId,
  GLUE_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
});

describe('data-job: Glue', () => {
  const glue = new GlueStandIn({ keys: [KEYS] });
  const h = sharedSidecar(
    [glue],
    () => env(glue),
    () => {
      glue.addJob({ name: 'orders etl' });
      glue.addJob({ name: 'long', lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'SUCCEEDED' }] });
      glue.addJob({
        name: 'broken',
        lifecycle: [
          { state: 'RUNNING' },
          { state: 'FAILED', message: 'AnalysisException: Path does not exist: s3://in/2024-01-01' },
        ],
      });
    },
  );
  const runsOf = (job: string) => glue.runs.filter((r) => r.jobName === job);

  it('starts the run with its arguments intact and the key as an argument, and waits for success', async () => {
    const body = {
      glue: {
        jobName: 'orders etl',
        arguments: { '--date': '2024-01-01', '--limit': 10 },
        workerType: 'G.1X',
        numberOfWorkers: 4,
        timeoutMinutes: 60,
      },
    };
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob(body, { workflow: uniqueWorkflow() }),
      glue.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    const run = runsOf('orders etl').at(-1)!;
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
    expect(glue.operationCalls.slice(0, 2)).toEqual(['GetJobRuns', 'StartJobRun']);
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    expect(outputs(final)).toEqual({
      provider: 'glue',
      runId: run.id,
      url: `https://eu-west-1.console.aws.amazon.com/gluestudio/home?region=eu-west-1#/job/orders%20etl/run/${run.id}`,
      state: 'succeeded',
      upstreamState: 'SUCCEEDED',
      duration: expect.any(String),
      jobName: 'orders etl',
    });
    expectNoSecrets(h, replies, [SECRETS.awsSecretKey]);
  });

  it('fails a run naming the state and its ErrorMessage', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ glue: { jobName: 'broken' } }, { workflow: uniqueWorkflow() }),
      glue.server,
    );
    expect(final.node?.message).toMatch(
      /^Glue run jr_\w+ failed \(FAILED\): AnalysisException: Path does not exist/,
    );
  });

  it('keeps a step to one run: concurrent calls, then a restart that finds it past a page of other runs', async () => {
    const request = dataJob(
      { glue: { jobName: 'long', arguments: { '--date': '2024-01-02' } } },
      { workflow: uniqueWorkflow() },
    );
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    glue.addForeignRuns('long', 250);
    const starts = glue.count('StartJobRun');
    await withSidecar(env(glue), async (restarted) => {
      expect(outputs((await restarted.execute(request)).body).runId).toBe(runId);
    });
    expect(glue.count('StartJobRun')).toBe(starts);
    expect(glue.count('GetJobRuns')).toBeGreaterThanOrEqual(3); // the lookup read a second page
  });

  it('rides out throttling as the SDK retries it, and 5xx past its retries', async () => {
    const request = dataJob({ glue: { jobName: 'orders etl' } }, { workflow: uniqueWorkflow() });
    glue.throttle('StartJobRun', 2);
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    glue.failNext('GetJobRun', new AwsError('InternalServiceException', 'Internal service error', 500), 3);
    expect((await h.execute(request)).body.node?.message).toMatch(
      /glue: GetJobRun → 500 InternalServiceException: Internal service error; retrying/,
    );
    const { final } = await pollToEnd(h, request, glue.server);
    expect(final.node?.phase).toBe('Succeeded');
  });

  it('stops the run on timeout (BatchStopJobRun), then fails', async () => {
    const request = dataJob(
      { glue: { jobName: 'long' }, timeout: '1s', pollInterval: '5s' },
      { workflow: uniqueWorkflow() },
    );
    expect((await h.execute(request)).body.requeue).toBe('1s');
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(/^Glue run jr_\w+ timed out after 1s and was cancelled/);
    expect(glue.count('BatchStopJobRun')).toBe(1);
    expect(runsOf('long').filter((r) => r.stopped)).toHaveLength(1);
  });

  it('fails naming the field of a bad body, and the AWS reason of a refused call', async () => {
    const bad = await h.execute(
      dataJob({ glue: { jobName: 'orders etl', arguments: { date: '2024-01-01' } } }),
    );
    expect(bad.body.node).toEqual({
      phase: 'Failed',
      message: 'data-job: invalid config: glue.arguments.date: must start with --',
    });
    const missing = await h.execute(
      dataJob({ glue: { jobName: 'nosuchjob' } }, { workflow: uniqueWorkflow() }),
    );
    expect(missing.body.node?.message).toBe(
      'glue: GetJobRuns → 400 EntityNotFoundException: Failed to start job run due to missing metadata',
    );
  });

  it('names the variable to set when the body picks an unconfigured connection', async () => {
    const reply = await h.execute(dataJob({ glue: { jobName: 'long' }, connection: 'prod' }));
    expect(reply.body.node?.message).toContain('GLUE_PROD_REGION');
  });
});
