import { AirflowStandIn } from '../stand-ins/index.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  SECRETS,
  sharedSidecar,
  sleep,
  startDataJob,
  uniqueWorkflow,
  withSidecar,
} from './support.js';

const USER = 'argo-runner';

function seed(airflow: AirflowStandIn): void {
  airflow
    .addDag({ dagId: 'ingest' })
    .addDag({
      dagId: 'flaky',
      lifecycle: [{ state: 'queued' }, { state: 'running' }, { state: 'failed' }],
      failedTasks: ['transform'],
    })
    .addDag({ dagId: 'slow', lifecycle: [{ state: 'running', polls: 1000 }, { state: 'success' }] })
    .addDag({ dagId: 'paused', paused: true });
}

describe('data-job: Airflow 3 (API v2, JWT, auto-detected)', () => {
  const airflow = new AirflowStandIn({ api: 'v2', username: USER, password: SECRETS.airflowPassword });
  const env = (): Record<string, string> => ({
    AIRFLOW_URL: airflow.url,
    AIRFLOW_USERNAME: USER,
    AIRFLOW_PASSWORD: SECRETS.airflowPassword,
  });
  const secrets = (): string[] => [SECRETS.airflowPassword, ...airflow.jwts.keys()];

  const h = sharedSidecar([airflow], env, () => seed(airflow));

  it('detects v2, logs in once, triggers the DAG with conf intact and waits for success', async () => {
    const conf = { date: '2024-01-01', tables: ['a', 'b'], options: { full: true, limit: 10 } };
    const wf = uniqueWorkflow('nightly');
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob({ airflow: { dagId: 'ingest', conf } }, { workflow: wf }),
      airflow.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    const run = airflow.runsOf('ingest').find((r) => r.dagRunId === outputs(final).runId)!;
    expect(run.request).toEqual({
      dag_run_id: expect.stringMatching(new RegExp(`^argo__${wf.name}__[0-9a-f]{32}$`)),
      conf,
      note: `Triggered by Argo workflow argo/${wf.name}`,
      logical_date: null,
    });
    expect(airflow.server.count('POST', '/auth/token')).toBe(1);
    expect(airflow.server.count('GET', '/api/v2/version')).toBe(1);
    expect(requestsPerCall.slice(1, -1).every((n) => n === 1)).toBe(true);
    expect(outputs(final)).toEqual({
      provider: 'airflow',
      runId: run.dagRunId,
      url: `${airflow.url}/dags/ingest/runs/${run.dagRunId}`,
      state: 'succeeded',
      upstreamState: 'success',
      duration: expect.any(String),
    });
    expectNoSecrets(h, replies, secrets());
  });

  it('fetches a new JWT when the old one expires, and keeps polling', async () => {
    const request = dataJob({ airflow: { dagId: 'slow' } }, { workflow: uniqueWorkflow() });
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    const logins = airflow.server.count('POST', '/auth/token');
    airflow.expireTokens();
    const after = await h.execute(request);
    expect(after.body.node?.phase).toBe('Running');
    expect(airflow.server.count('POST', '/auth/token')).toBe(logins + 1);
    expectNoSecrets(h, [after.body], secrets());
  });

  it('fails with the failed tasks named', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ airflow: { dagId: 'flaky' } }, { workflow: uniqueWorkflow() }),
      airflow.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^Airflow run argo__\S+ failed \(failed\): failed tasks: transform \(http/,
    );
    expect(outputs(final)).toMatchObject({
      state: 'failed',
      upstreamState: 'failed',
      failedTasks: 'transform',
    });
  });

  it('fails fast for a paused DAG without creating a run', async () => {
    const reply = await h.execute(dataJob({ airflow: { dagId: 'paused' } }, { workflow: uniqueWorkflow() }));
    expect(reply.body.node).toEqual({
      phase: 'Failed',
      message:
        'airflow: DAG paused is paused, so a new run would stay queued until someone unpauses it; unpause the DAG and retry',
    });
    expect(airflow.runsOf('paused')).toHaveLength(0);
  });

  it('adopts its run after a restart (409 in the unique-constraint dialect), even once the DAG is paused', async () => {
    const request = dataJob({ airflow: { dagId: 'slow' } }, { workflow: uniqueWorkflow() });
    const concurrent = await Promise.all(Array.from({ length: 4 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    const restarted = await startDataJob(env());
    try {
      const posts = airflow.server.count('POST', '/api/v2/dags/slow/dagRuns');
      const again = await restarted.execute(request);
      expect(airflow.server.count('POST', '/api/v2/dags/slow/dagRuns')).toBe(posts + 1);
      expect(airflow.server.calls.some((c) => c.status === 409)).toBe(true);
      expect(again.body.node?.phase).toBe('Running');
      expect(outputs(again.body).runId).toBe(runId);

      airflow.dags.get('slow')!.paused = true;
      await withSidecar(env(), async (third) => {
        expect(outputs((await third.execute(request)).body).runId).toBe(runId);
      });
    } finally {
      airflow.dags.get('slow')!.paused = false;
      await restarted.close();
    }
    expect(airflow.runsOf('slow').filter((r) => r.dagRunId === runId)).toHaveLength(1);
  });

  it('cancels with PATCH state=failed on timeout', async () => {
    const request = dataJob({ airflow: { dagId: 'slow' }, timeout: '1s' }, { workflow: uniqueWorkflow() });
    await h.execute(request);
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.phase).toBe('Failed');
    expect(reply.body.node?.message).toMatch(
      /^Airflow run \S+ timed out after 1s and was cancelled \(last state running\)/,
    );
    const run = airflow.runsOf('slow').find((r) => r.dagRunId === outputs(reply.body).runId)!;
    expect(run.patches).toEqual([{ state: 'failed' }]);
    const patch = airflow.server.calls.filter((c) => c.method === 'PATCH').pop()!;
    expect(patch.query).toBe('update_mask=state');
  });

  it('names a DAG that does not exist, and refused credentials, clearly', async () => {
    const missing = await h.execute(dataJob({ airflow: { dagId: 'nope' } }, { workflow: uniqueWorkflow() }));
    expect(missing.body.node?.message).toBe(
      "airflow: GET /api/v2/dags/nope → 404 Not Found: DAG with dag_id: 'nope' not found",
    );
    await withSidecar({ ...env(), AIRFLOW_PASSWORD: 'wrong-password-123' }, async (wrong) => {
      const reply = await wrong.execute(
        dataJob({ airflow: { dagId: 'ingest' } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node?.message).toBe(
        'airflow: POST /auth/token → 401 Unauthorized: Invalid credentials',
      );
      expectNoSecrets(wrong, [reply.body], ['wrong-password-123']);
    });
  });
});

describe('data-job: Airflow 2 (API v1)', () => {
  const airflow = new AirflowStandIn({
    api: 'v1',
    username: USER,
    password: SECRETS.airflowPassword,
    token: SECRETS.airflowToken,
  });
  const env = (): Record<string, string> => ({
    AIRFLOW_URL: airflow.url,
    AIRFLOW_USERNAME: USER,
    AIRFLOW_PASSWORD: SECRETS.airflowPassword,
    AIRFLOW_API_VERSION: 'v1',
  });

  const h = sharedSidecar([airflow], env, () => seed(airflow));

  it('triggers with Basic auth, the logical date and conf, and rides out 5xx and resets', async () => {
    const request = dataJob(
      {
        airflow: {
          dagId: 'ingest',
          conf: { date: '2024-01-01' },
          logicalDate: '2024-01-01T00:00:00+00:00',
          note: 'backfill',
        },
      },
      { workflow: uniqueWorkflow() },
    );
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    airflow.server.faults.add({ kind: 'status', status: 502, body: 'Bad Gateway' });
    expect((await h.execute(request)).body.node?.message).toMatch(/502 Bad Gateway.*retrying/);
    airflow.server.faults.add({ kind: 'reset' });
    expect((await h.execute(request)).body.node?.message).toMatch(/retrying/);
    const { final } = await pollToEnd(h, request, airflow.server);
    expect(final.node?.phase).toBe('Succeeded');
    const run = airflow.runsOf('ingest').find((r) => r.dagRunId === outputs(final).runId)!;
    expect(run.request).toEqual({
      dag_run_id: run.dagRunId,
      conf: { date: '2024-01-01' },
      note: 'backfill',
      logical_date: '2024-01-01T00:00:00+00:00',
    });
    expect(outputs(final).url).toBe(
      `${airflow.url}/dags/ingest/grid?dag_run_id=${encodeURIComponent(run.dagRunId)}`,
    );
    expect(
      airflow.server.calls.every(
        (c) => c.path.startsWith('/api/v1/') && String(c.headers.authorization).startsWith('Basic '),
      ),
    ).toBe(true);
    expect(airflow.server.count('GET', '/api/v2')).toBe(0);
    expectNoSecrets(h, [final], [SECRETS.airflowPassword]);
  });

  it('omits logical_date when not given (Airflow 2 picks now)', async () => {
    const reply = await h.execute(dataJob({ airflow: { dagId: 'slow' } }, { workflow: uniqueWorkflow() }));
    const run = airflow.runsOf('slow').find((r) => r.dagRunId === outputs(reply.body).runId)!;
    expect(Object.keys(run.request).sort()).toEqual(['conf', 'dag_run_id', 'note']);
  });

  it('adopts its run after a restart (409 in the problem+json dialect)', async () => {
    const request = dataJob({ airflow: { dagId: 'slow' } }, { workflow: uniqueWorkflow() });
    const first = await h.execute(request);
    await withSidecar(env(), async (restarted) => {
      const again = await restarted.execute(request);
      expect(outputs(again.body).runId).toBe(outputs(first.body).runId);
      expect(airflow.server.calls.filter((c) => c.status === 409).length).toBeGreaterThan(0);
    });
    expect(airflow.runsOf('slow').filter((r) => r.dagRunId === outputs(first.body).runId)).toHaveLength(1);
  });

  it('fails when another run holds the logical date', async () => {
    const date = '2023-06-01T00:00:00+00:00';
    await h.execute(
      dataJob({ airflow: { dagId: 'ingest', logicalDate: date } }, { workflow: uniqueWorkflow() }),
    );
    const other = await h.execute(
      dataJob({ airflow: { dagId: 'ingest', logicalDate: date } }, { workflow: uniqueWorkflow() }),
    );
    expect(other.body.node?.phase).toBe('Failed');
    expect(other.body.node?.message).toMatch(
      /409 Conflict: DAGRun with DAG ID: 'ingest' and DAGRun logical date: .* already exists \(another run of DAG ingest holds this logical date\)$/,
    );
  });

  it('uses a static bearer token when one is configured', async () => {
    await withSidecar({ AIRFLOW_URL: airflow.url, AIRFLOW_TOKEN: SECRETS.airflowToken }, async (bearer) => {
      const { final } = await pollToEnd(
        bearer,
        dataJob({ airflow: { dagId: 'ingest' } }, { workflow: uniqueWorkflow() }),
        airflow.server,
      );
      expect(final.node?.phase).toBe('Succeeded');
      expect(airflow.server.calls[airflow.server.calls.length - 1].headers.authorization).toBe(
        `Bearer ${SECRETS.airflowToken}`,
      );
      expectNoSecrets(bearer, [final], [SECRETS.airflowToken]);
    });
  });
});
