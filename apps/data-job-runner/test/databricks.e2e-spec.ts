import { DatabricksStandIn } from '../stand-ins/index.js';
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

describe('data-job: Databricks', () => {
  const databricks = new DatabricksStandIn({ token: SECRETS.databricks });
  const env = (): Record<string, string> => ({
    DATABRICKS_HOST: databricks.url,
    DATABRICKS_TOKEN: SECRETS.databricks,
  });

  const h = sharedSidecar([databricks], env, () =>
    databricks
      .addJob({ jobId: 11, name: 'nightly', notebookResult: '{"rows": 42}' })
      .addJob({
        jobId: 12,
        name: 'broken',
        notebookError: 'ValueError: no rows for 2024-01-01',
        lifecycle: [
          { state: 'PENDING' },
          { state: 'RUNNING' },
          { state: 'TERMINATED/FAILED', message: 'Task main failed with message: boom.' },
        ],
      })
      .addJob({
        jobId: 13,
        name: 'long',
        lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'TERMINATED/SUCCESS' }],
      })
      .addJob({
        jobId: 14,
        name: 'partial',
        tasks: [{ task_key: 'a' }, { task_key: 'b' }],
        lifecycle: [{ state: 'TERMINATED/SUCCESS_WITH_FAILURES' }],
      })
      .addJob({
        jobId: 15,
        name: 'skipped',
        lifecycle: [{ state: 'SKIPPED', message: 'Run skipped: maximum concurrent runs reached.' }],
      })
      .addJob({
        jobId: 16,
        name: 'internal',
        lifecycle: [{ state: 'INTERNAL_ERROR/FAILED', message: 'Cluster could not be created.' }],
      })
      .addJob({
        jobId: 17,
        name: 'py',
        tasks: [{ task_key: 'py', spark_python_task: { python_file: 'dbfs:/x.py' } }],
      }),
  );

  const declaresNotebookOutput = {
    outputs: { parameters: [{ name: 'notebookOutput', valueFrom: { supplied: {} } }] },
  };

  it('runs a job to success with one upstream request per poll, and reports the run', async () => {
    const wf = uniqueWorkflow();
    const request = dataJob(
      {
        databricks: { jobId: 11, jobParameters: { date: '2024-01-01', n: 5, full: true } },
        pollInterval: '10s',
      },
      { workflow: wf, template: declaresNotebookOutput },
    );
    const { replies, final, requestsPerCall } = await pollToEnd(h, request, databricks.server);

    expect(replies[0].node?.phase).toBe('Running');
    expect(replies[0].requeue).toBe('10s');
    expect(final.node?.phase).toBe('Succeeded');
    // first call: run-now + runs/get; each poll: runs/get; the terminal one also runs/get-output (declared)
    expect(requestsPerCall[0]).toBe(2);
    expect(requestsPerCall.slice(1, -1).every((n) => n === 1)).toBe(true);
    expect(requestsPerCall[requestsPerCall.length - 1]).toBe(2);

    const runs = databricks.runsOf(11);
    const run = runs.find((r) => String(r.runId) === outputs(final).runId)!;
    expect(run.request.job_parameters).toEqual({ date: '2024-01-01', n: '5', full: 'true' });
    expect(run.idempotencyToken).toMatch(/^[0-9a-f]{64}$/);
    expect(outputs(final)).toEqual({
      provider: 'databricks',
      runId: String(run.runId),
      url: `${databricks.url}/?o=1234567890123456#job/11/run/${run.runId}`,
      state: 'succeeded',
      upstreamState: 'TERMINATED/SUCCESS',
      duration: expect.stringMatching(/^\d+(\.\d+)?(ms|s)$/),
      notebookOutput: '{"rows": 42}',
    });
    expect(final.node?.message).toMatch(
      new RegExp(
        `^Databricks run ${run.runId} succeeded \\(TERMINATED/SUCCESS\\) in .+ \\(${databricks.url}`,
      ),
    );
    expectNoSecrets(h, replies, [SECRETS.databricks]);
  });

  it('keeps notebook and Python parameters, and one-time task lists, intact upstream', async () => {
    const notebook = await pollToEnd(
      h,
      dataJob(
        { databricks: { jobId: 11, notebookParams: { a: 'x y', b: 2 } } },
        { workflow: uniqueWorkflow() },
      ),
      databricks.server,
    );
    const python = await pollToEnd(
      h,
      dataJob(
        { databricks: { jobId: 17, pythonParams: ['--date', '2024-01-01', 3] } },
        { workflow: uniqueWorkflow() },
      ),
      databricks.server,
    );
    const tasks = [
      {
        task_key: 't',
        notebook_task: { notebook_path: '/Shared/x', base_parameters: { k: 'v' } },
        existing_cluster_id: '0923-abc',
      },
    ];
    const submit = await pollToEnd(
      h,
      dataJob(
        { databricks: { submit: { runName: 'one-off', tasks, timeoutSeconds: 600 } } },
        { workflow: uniqueWorkflow() },
      ),
      databricks.server,
    );
    const byId = (reply: typeof notebook.final) =>
      databricks.runs.find((r) => String(r.runId) === outputs(reply).runId)!;
    expect(byId(notebook.final).request.notebook_params).toEqual({ a: 'x y', b: '2' });
    expect(byId(python.final).request.python_params).toEqual(['--date', '2024-01-01', '3']);
    expect(byId(submit.final).request).toEqual({
      run_name: 'one-off',
      tasks,
      timeout_seconds: 600,
      idempotency_token: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(outputs(python.final).notebookOutput).toBeUndefined();
  });

  it('skips runs/get-output when the template does not declare notebookOutput: one request on every poll', async () => {
    const { final, requestsPerCall } = await pollToEnd(
      h,
      dataJob({ databricks: { jobId: 11 }, pollInterval: '10s' }, { workflow: uniqueWorkflow() }),
      databricks.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    expect(outputs(final).notebookOutput).toBeUndefined();
  });

  it('fails with the state message and the notebook error when the run fails', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ databricks: { jobId: 12 } }, { workflow: uniqueWorkflow() }),
      databricks.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^Databricks run \d+ failed \(TERMINATED\/FAILED\): Task main failed with message: boom\.; ValueError: no rows for 2024-01-01 \(http/,
    );
    expect(final.node?.message).toContain(databricks.url);
    expect(outputs(final)).toMatchObject({ state: 'failed', upstreamState: 'TERMINATED/FAILED' });
    expect(final.requeue).toBeUndefined();
  });

  it('maps SUCCESS_WITH_FAILURES to success by default and to failure on request; SKIPPED and INTERNAL_ERROR fail', async () => {
    const lenient = await pollToEnd(
      h,
      dataJob({ databricks: { jobId: 14 } }, { workflow: uniqueWorkflow() }),
      databricks.server,
    );
    expect(lenient.final.node?.phase).toBe('Succeeded');
    expect(outputs(lenient.final).upstreamState).toBe('TERMINATED/SUCCESS_WITH_FAILURES');
    const strict = await pollToEnd(
      h,
      dataJob({ databricks: { jobId: 14, successWithFailures: 'failed' } }, { workflow: uniqueWorkflow() }),
      databricks.server,
    );
    expect(strict.final.node?.phase).toBe('Failed');
    const skipped = await pollToEnd(
      h,
      dataJob({ databricks: { jobId: 15 } }, { workflow: uniqueWorkflow() }),
      databricks.server,
    );
    expect(skipped.final.node?.message).toMatch(
      /failed \(SKIPPED\): Run skipped: maximum concurrent runs reached\./,
    );
    const internal = await pollToEnd(
      h,
      dataJob({ databricks: { jobId: 16 } }, { workflow: uniqueWorkflow() }),
      databricks.server,
    );
    expect(internal.final.node?.message).toMatch(
      /failed \(INTERNAL_ERROR\/FAILED\): Cluster could not be created\./,
    );
  });

  it('cancels the run upstream when the timeout expires, then fails', async () => {
    const request = dataJob(
      { databricks: { jobId: 13 }, timeout: '1s', pollInterval: '30s' },
      { workflow: uniqueWorkflow() },
    );
    const first = await h.execute(request);
    expect(first.body.node?.phase).toBe('Running');
    expect(first.body.requeue).toBe('1s'); // shortened so the timeout is noticed on time
    await sleep(1050);
    const cancels = databricks.server.count('POST', '/api/2.2/jobs/runs/cancel');
    const timedOut = await h.execute(request);
    expect(timedOut.body.node?.phase).toBe('Failed');
    expect(timedOut.body.node?.message).toMatch(
      /^Databricks run \d+ timed out after 1s and was cancelled \(last state RUNNING\)/,
    );
    expect(outputs(timedOut.body).state).toBe('cancelled');
    expect(databricks.server.count('POST', '/api/2.2/jobs/runs/cancel')).toBe(cancels + 1);
    const run = databricks.runs.find((r) => String(r.runId) === outputs(timedOut.body).runId)!;
    expect(run.cancelled).toBe(true);
    // a later call (agent retry with the same key) replays the result without touching the upstream
    const calls = databricks.server.calls.length;
    expect((await h.execute(request)).body.node?.phase).toBe('Failed');
    expect(databricks.server.calls.length).toBe(calls);
  });

  it('rides out 503 TEMPORARILY_UNAVAILABLE, 429 REQUEST_LIMIT_EXCEEDED, resets and hangs while polling', async () => {
    const request = dataJob({ databricks: { jobId: 11 } }, { workflow: uniqueWorkflow() });
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    const isGet = (req: { path: string }) => req.path.endsWith('/runs/get');
    databricks.unavailable(1, isGet);
    const unavailable = await h.execute(request);
    expect(unavailable.body.node?.phase).toBe('Running');
    expect(unavailable.body.node?.message).toMatch(/503 .*TEMPORARILY_UNAVAILABLE.*retrying in/);
    databricks.rateLimit(1, 17, isGet);
    const limited = await h.execute(request);
    expect(limited.body.node?.message).toMatch(/429 .*REQUEST_LIMIT_EXCEEDED/);
    expect(limited.body.requeue).toBe('17s');
    databricks.server.faults.add({ kind: 'reset' }, { match: isGet });
    expect((await h.execute(request)).body.node?.message).toMatch(/retrying/);
    databricks.server.faults.add({ kind: 'hang' }, { match: isGet });
    expect((await h.execute(request)).body.node?.message).toMatch(/timed out; retrying/);
    const { final } = await pollToEnd(h, request, databricks.server);
    expect(final.node?.phase).toBe('Succeeded');
    expect(databricks.runs.filter((r) => String(r.runId) === outputs(final).runId)).toHaveLength(1);
  });

  it('starts exactly one run across repeated, concurrent and post-restart calls', async () => {
    const wf = uniqueWorkflow();
    const request = dataJob({ databricks: { jobId: 13 } }, { workflow: wf });
    const before = databricks.runsOf(13).length;
    const concurrent = await Promise.all(Array.from({ length: 6 }, () => h.execute(request)));
    expect(new Set(concurrent.map((r) => outputs(r.body).runId)).size).toBe(1);
    await h.execute(request);
    await h.execute(request);
    // a new sidecar (empty ledger) re-issues run-now with the same idempotency token: same run
    await withSidecar(env(), async (restarted) => {
      const runNows = databricks.server.count('POST', '/api/2.2/jobs/run-now');
      const again = await restarted.execute(request);
      expect(databricks.server.count('POST', '/api/2.2/jobs/run-now')).toBe(runNows + 1);
      expect(outputs(again.body).runId).toBe(outputs(concurrent[0].body).runId);
    });
    expect(databricks.runsOf(13).length).toBe(before + 1);
  });

  it('returns at once with wait: false', async () => {
    const { final, replies } = await pollToEnd(
      h,
      dataJob({ databricks: { jobId: 13 }, wait: false }, { workflow: uniqueWorkflow() }),
      databricks.server,
    );
    expect(replies).toHaveLength(1);
    expect(final.node?.phase).toBe('Succeeded');
    expect(final.node?.message).toMatch(/^Databricks run \d+ started \(RUNNING\)/);
    expect(outputs(final)).toMatchObject({ provider: 'databricks', state: 'running' });
    const over = await h.execute(
      dataJob({ databricks: { jobId: 15 }, wait: false }, { workflow: uniqueWorkflow() }),
    );
    expect(over.body.node?.phase).toBe('Failed');
    expect(over.body.node?.message).toMatch(/^Databricks run \d+ failed \(SKIPPED\)/);
  });

  it('fails clearly for a job that does not exist, and for a bad body, without leaking the token', async () => {
    const missing = await h.execute(dataJob({ databricks: { jobId: 999 } }, { workflow: uniqueWorkflow() }));
    expect(missing.body.node).toEqual({
      phase: 'Failed',
      message:
        'databricks: POST /api/2.2/jobs/run-now → 400 Bad Request: Job 999 does not exist. (INVALID_PARAMETER_VALUE)',
    });
    const calls = databricks.server.calls.length;
    const bad = await h.execute(dataJob({ databricks: { jobId: 11, jobParameters: { a: [1] } } }));
    expect(bad.body.node).toEqual({
      phase: 'Failed',
      message:
        'data-job: invalid config: databricks.jobParameters: must be an object of strings, numbers or booleans',
    });
    const both = await h.execute(
      dataJob({ databricks: { jobId: 11, submit: { tasks: [{ task_key: 'x' }] } } }),
    );
    expect(both.body.node?.message).toBe(
      'data-job: invalid config: databricks: set either jobId or submit, not both',
    );
    expect(databricks.server.calls.length).toBe(calls);
    expectNoSecrets(h, [missing.body, bad.body], [SECRETS.databricks]);
  });

  it('fails with the upstream message when the token is refused', async () => {
    const wrongToken = { DATABRICKS_HOST: databricks.url, DATABRICKS_TOKEN: 'dapi-wrong-token-000000000000' };
    await withSidecar(wrongToken, async (wrong) => {
      const reply = await wrong.execute(
        dataJob({ databricks: { jobId: 11 } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node).toEqual({
        phase: 'Failed',
        message:
          'databricks: POST /api/2.2/jobs/run-now → 401 Unauthorized: Invalid access token. (UNAUTHENTICATED)',
      });
      expectNoSecrets(wrong, [reply.body], ['dapi-wrong-token-000000000000']);
    });
  });
});
