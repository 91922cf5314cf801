import { DBT_LOOKUP_WINDOW } from '../src/job/run-keys.js';
import { DbtCloudStandIn } from '../stand-ins/index.js';
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

const ACCOUNT = 43786;

describe('data-job: dbt Cloud', () => {
  const dbt = new DbtCloudStandIn({ accountId: ACCOUNT, token: SECRETS.dbtCloud });
  const env = (): Record<string, string> => ({
    DBT_CLOUD_URL: dbt.url,
    DBT_CLOUD_ACCOUNT_ID: String(ACCOUNT),
    DBT_CLOUD_API_TOKEN: SECRETS.dbtCloud,
  });
  const base = `/api/v2/accounts/${ACCOUNT}`;

  const h = sharedSidecar([dbt], env, () =>
    dbt
      .addJob({ jobId: 501, name: 'models' })
      .addJob({
        jobId: 502,
        name: 'broken',
        lifecycle: [
          { state: 1 },
          { state: 3 },
          { state: 20, message: 'Database Error in model orders: relation "raw.orders" does not exist' },
        ],
      })
      .addJob({ jobId: 503, name: 'long', lifecycle: [{ state: 3, polls: 1000 }, { state: 10 }] })
      .addJob({ jobId: 504, name: 'busy' }),
  );

  it('looks for its run, then triggers the job with the cause marker and overrides intact, and waits', async () => {
    const wf = uniqueWorkflow();
    const request = dataJob(
      {
        dbtCloud: {
          jobId: '501',
          stepsOverride: ['dbt seed', 'dbt build -s tag:daily --vars "{day: 2024-01-01}"'],
          gitBranch: 'release/1.2',
          cause: 'nightly models',
        },
      },
      { workflow: wf },
    );
    const { replies, final, requestsPerCall } = await pollToEnd(h, request, dbt.server);
    expect(final.node?.phase).toBe('Succeeded');
    expect(requestsPerCall[0]).toBe(2); // lookup + trigger
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    const lookup = dbt.server.calls.find((c) => c.method === 'GET' && c.path === `${base}/runs/`)!;
    expect(Object.fromEntries(new URLSearchParams(lookup.query))).toEqual({
      job_definition_id: '501',
      order_by: '-id',
      limit: String(DBT_LOOKUP_WINDOW),
      include_related: '["trigger"]',
    });
    expect(lookup.headers.authorization).toBe(`Token ${SECRETS.dbtCloud}`);
    const run = dbt.runsOf(501)[0];
    expect(run.request).toEqual({
      cause: expect.stringMatching(/^nightly models \[argo K=[0-9a-f]{32}\]$/),
      steps_override: ['dbt seed', 'dbt build -s tag:daily --vars "{day: 2024-01-01}"'],
      git_branch: 'release/1.2',
    });
    expect(outputs(final)).toEqual({
      provider: 'dbtCloud',
      runId: String(run.id),
      url: `${dbt.url}/deploy/${ACCOUNT}/projects/70403103920000/runs/${run.id}/`,
      state: 'succeeded',
      upstreamState: 'Success (10)',
      duration: expect.any(String),
    });
    expect(replies[0].node?.message).toMatch(/^dbt Cloud run \d+ is queued \(Queued \(1\)\)/);
    expectNoSecrets(h, replies, [SECRETS.dbtCloud]);
  });

  it('fails with the status message of an errored run', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ dbtCloud: { jobId: 502 } }, { workflow: uniqueWorkflow() }),
      dbt.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^dbt Cloud run \d+ failed \(Error \(20\)\): Database Error in model orders: relation "raw.orders" does not exist \(/,
    );
    expect(dbt.runsOf(502)[0].cause).toMatch(/^Argo workflow argo\/wf-e2e-\d+ \[argo K=/);
  });

  it('adopts its run after a restart by the cause marker, and starts one run for concurrent calls', async () => {
    const request = dataJob({ dbtCloud: { jobId: 503 } }, { workflow: uniqueWorkflow() });
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    dbt.addForeignRuns(503, 5);
    await withSidecar(env(), async (restarted) => {
      const triggers = dbt.server.count('POST', `${base}/jobs/503/run/`);
      const again = await restarted.execute(request);
      expect(outputs(again.body).runId).toBe(runId);
      expect(dbt.server.count('POST', `${base}/jobs/503/run/`)).toBe(triggers);
    });
    expect(dbt.runsOf(503).filter((r) => !r.cause.startsWith('Triggered via schedule'))).toHaveLength(1);
  });

  it(`starts a second run when its own is older than the ${DBT_LOOKUP_WINDOW} most recent (the documented limit)`, async () => {
    const request = dataJob({ dbtCloud: { jobId: 504 } }, { workflow: uniqueWorkflow() });
    await h.execute(request);
    dbt.addForeignRuns(504, DBT_LOOKUP_WINDOW);
    await withSidecar(env(), async (restarted) => {
      await restarted.execute(request);
    });
    expect(dbt.runsOf(504).filter((r) => r.cause.includes('argo K='))).toHaveLength(2);
  });

  it('cancels on timeout, and rides out 429 and 5xx while polling', async () => {
    const request = dataJob({ dbtCloud: { jobId: 503 }, timeout: '1s' }, { workflow: uniqueWorkflow() });
    await h.execute(request);
    dbt.server.faults.add({
      kind: 'rate-limit',
      retryAfterSeconds: 9,
      body: {
        status: { code: 429, is_success: false, user_message: 'Too many requests', developer_message: '' },
        data: null,
      },
    });
    const limited = await h.execute(request);
    expect(limited.body.node?.message).toMatch(/429 Too Many Requests: Too many requests; retrying in 9s/);
    expect(limited.body.requeue).toBe('9s');
    dbt.server.faults.add({ kind: 'status', status: 500, body: 'Internal Server Error' });
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(
      /^dbt Cloud run \d+ timed out after 1s and was cancelled \(last state Running \(3\)\)/,
    );
    const run = dbt.runs.find((r) => String(r.id) === outputs(reply.body).runId)!;
    expect(run.cancelled).toBe(true);
    expect(dbt.server.count('POST', `${base}/runs/${run.id}/cancel/`)).toBe(1);
  });

  it('fails with the envelope message for an unknown job and a refused token', async () => {
    const missing = await h.execute(dataJob({ dbtCloud: { jobId: 999 } }, { workflow: uniqueWorkflow() }));
    expect(missing.body.node?.message).toBe(
      `dbt Cloud: POST ${base}/jobs/999/run/ → 404 Not Found: The requested resource was not found.`,
    );
    await withSidecar({ ...env(), DBT_CLOUD_API_TOKEN: 'dbtc_wrong_token_0000000' }, async (wrong) => {
      const reply = await wrong.execute(
        dataJob({ dbtCloud: { jobId: 501 } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node?.message).toBe(
        `dbt Cloud: GET ${base}/runs/ → 401 Unauthorized: Invalid token.`,
      );
      expectNoSecrets(wrong, [reply.body], ['dbtc_wrong_token_0000000']);
    });
    const bad = await h.execute(dataJob({ dbtCloud: { jobId: 501, stepsOverride: [] } }));
    expect(bad.body.node?.message).toBe(
      'data-job: invalid config: dbtCloud.stepsOverride: should not be empty',
    );
  });
});
