// The stand-ins must refuse what the real APIs refuse, or the e2e tests prove nothing.
import { AirflowStandIn } from './airflow/airflow.stand-in.js';
import { DatabricksStandIn } from './databricks/databricks.stand-in.js';
import { DbtCloudStandIn } from './dbt-cloud/dbt-cloud.stand-in.js';
import { LivyStandIn } from './livy/livy.stand-in.js';

async function call(url: string, method: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json: json as Record<string, unknown>, headers: res.headers };
}

describe('Databricks stand-in', () => {
  const db = new DatabricksStandIn({ token: 'dapi-stand-in-token' });
  const auth = { Authorization: 'Bearer dapi-stand-in-token' };
  beforeAll(async () => {
    await db.start();
    db.addJob({ jobId: 1 });
  });
  afterAll(() => db.close());

  it('refuses a missing or wrong token with error_code bodies', async () => {
    expect((await call(`${db.url}/api/2.2/jobs/run-now`, 'POST', {}, { job_id: 1 })).json).toEqual({
      error_code: 'UNAUTHENTICATED',
      message: 'Credential was not sent or was of an unsupported type for this API.',
    });
    expect(
      (await call(`${db.url}/api/2.2/jobs/run-now`, 'POST', { Authorization: 'Bearer nope' }, { job_id: 1 }))
        .status,
    ).toBe(401);
  });

  it('returns the same run for the same idempotency token, and checks it and the parameters', async () => {
    const first = await call(`${db.url}/api/2.2/jobs/run-now`, 'POST', auth, {
      job_id: 1,
      idempotency_token: 'tok-1',
    });
    const second = await call(`${db.url}/api/2.2/jobs/run-now`, 'POST', auth, {
      job_id: 1,
      idempotency_token: 'tok-1',
    });
    expect(second.json.run_id).toBe(first.json.run_id);
    expect(db.runsOf(1)).toHaveLength(1);
    expect(
      (
        await call(`${db.url}/api/2.2/jobs/run-now`, 'POST', auth, {
          job_id: 1,
          idempotency_token: 'x'.repeat(65),
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(`${db.url}/api/2.2/jobs/run-now`, 'POST', auth, { job_id: 1, job_parameters: { n: 5 } }))
        .json.error_code,
    ).toBe('MALFORMED_REQUEST');
    expect((await call(`${db.url}/api/2.2/jobs/run-now`, 'POST', auth, { job_id: 77 })).json).toEqual({
      error_code: 'INVALID_PARAMETER_VALUE',
      message: 'Job 77 does not exist.',
    });
  });

  it('only sets result_state once terminal, and cancels asynchronously', async () => {
    const { json } = await call(`${db.url}/api/2.2/jobs/run-now`, 'POST', auth, { job_id: 1 });
    const get = async () =>
      (await call(`${db.url}/api/2.2/jobs/runs/get?run_id=${String(json.run_id)}`, 'GET', auth)).json;
    const pending = await get();
    expect(pending.state).toEqual({
      life_cycle_state: 'PENDING',
      state_message: '',
      user_cancelled_or_timedout: false,
    });
    expect(pending.end_time).toBe(0);
    await call(`${db.url}/api/2.2/jobs/runs/cancel`, 'POST', auth, { run_id: json.run_id });
    expect(((await get()).state as Record<string, unknown>).life_cycle_state).toBe('TERMINATING');
    expect((await get()).state).toMatchObject({
      life_cycle_state: 'TERMINATED',
      result_state: 'CANCELED',
      user_cancelled_or_timedout: true,
    });
    expect((await call(`${db.url}/api/2.2/jobs/runs/get?run_id=1`, 'GET', auth)).status).toBe(404);
  });
});

describe('Airflow stand-in', () => {
  const v1 = new AirflowStandIn({ api: 'v1', username: 'u', password: 'p' });
  const v2 = new AirflowStandIn({ api: 'v2', username: 'u', password: 'p' });
  const basic = { Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` };
  beforeAll(async () => {
    await Promise.all([v1.start(), v2.start()]);
    v1.addDag({ dagId: 'd' });
    v2.addDag({ dagId: 'd' });
  });
  afterAll(async () => {
    await Promise.all([v1.close(), v2.close()]);
  });

  it('v1: Basic auth, marshmallow unknown fields, 409 problem+json on a duplicate id', async () => {
    expect((await call(`${v1.url}/api/v1/dags/d`, 'GET')).json).toMatchObject({
      status: 401,
      title: 'Unauthorized',
    });
    expect(
      (await call(`${v1.url}/api/v1/dags/d/dagRuns`, 'POST', basic, { dag_run_id: 'r', bogus: 1 })).json
        .detail,
    ).toBe("{'bogus': ['Unknown field.']}");
    expect((await call(`${v1.url}/api/v1/dags/d/dagRuns`, 'POST', basic, { dag_run_id: 'r' })).status).toBe(
      200,
    );
    const dup = await call(`${v1.url}/api/v1/dags/d/dagRuns`, 'POST', basic, { dag_run_id: 'r' });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toContain('application/problem+json');
    expect(dup.json).toMatchObject({
      detail: "DAGRun with DAG ID: 'd' and DAGRun ID: 'r' already exists",
      title: 'Conflict',
    });
    expect((await call(`${v1.url}/api/v1/dags/x`, 'GET', basic)).json.detail).toBe(
      "DAG with dag_id: 'x' not found",
    );
  });

  it('v2: JWT from /auth/token (201) that expires, strict body with a required tz-aware logical_date, unique-constraint 409', async () => {
    const login = await call(`${v2.url}/auth/token`, 'POST', {}, { username: 'u', password: 'p' });
    expect(login.status).toBe(201);
    const bearer = { Authorization: `Bearer ${String(login.json.access_token)}` };
    expect((await call(`${v2.url}/auth/token`, 'POST', {}, { username: 'u', password: 'x' })).status).toBe(
      401,
    );
    const missing = await call(`${v2.url}/api/v2/dags/d/dagRuns`, 'POST', bearer, { dag_run_id: 'r' });
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toEqual([
      expect.objectContaining({ type: 'missing', loc: ['body', 'logical_date'] }),
    ]);
    const naive = await call(`${v2.url}/api/v2/dags/d/dagRuns`, 'POST', bearer, {
      dag_run_id: 'r',
      logical_date: '2024-01-01T00:00:00',
      extra: 1,
    });
    expect((naive.json.detail as Array<{ type: string }>).map((e) => e.type).sort()).toEqual([
      'extra_forbidden',
      'timezone_aware',
    ]);
    expect(
      (await call(`${v2.url}/api/v2/dags/d/dagRuns`, 'POST', bearer, { dag_run_id: 'r', logical_date: null }))
        .status,
    ).toBe(200);
    const dup = await call(`${v2.url}/api/v2/dags/d/dagRuns`, 'POST', bearer, {
      dag_run_id: 'r',
      logical_date: null,
    });
    expect(dup.status).toBe(409);
    expect(dup.json.detail).toMatchObject({ reason: 'Unique constraint violation' });
    v2.expireTokens();
    expect((await call(`${v2.url}/api/v2/dags/d`, 'GET', bearer)).json).toEqual({
      detail: 'Invalid JWT token',
    });
  });

  it('v2: issued JWTs expire after their lifetime', async () => {
    const short = new AirflowStandIn({ api: 'v2', username: 'u', password: 'p', jwtTtlMs: 20 });
    await short.start();
    short.addDag({ dagId: 'd' });
    try {
      const login = await call(`${short.url}/auth/token`, 'POST', {}, { username: 'u', password: 'p' });
      await new Promise((r) => setTimeout(r, 40));
      const res = await call(`${short.url}/api/v2/dags/d`, 'GET', {
        Authorization: `Bearer ${String(login.json.access_token)}`,
      });
      expect(res.status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('keeps the runs of a paused DAG queued, and PATCH marks a run failed', async () => {
    v1.addDag({ dagId: 'p', paused: true });
    await call(`${v1.url}/api/v1/dags/p/dagRuns`, 'POST', basic, { dag_run_id: 'q' });
    for (let i = 0; i < 3; i++)
      expect((await call(`${v1.url}/api/v1/dags/p/dagRuns/q`, 'GET', basic)).json.state).toBe('queued');
    expect(
      (await call(`${v1.url}/api/v1/dags/p/dagRuns/q`, 'PATCH', basic, { state: 'failed' })).json.state,
    ).toBe('failed');
  });
});

describe('dbt Cloud stand-in', () => {
  const dbt = new DbtCloudStandIn({ accountId: 1, token: 'dbtc-token' });
  beforeAll(async () => {
    await dbt.start();
    dbt.addJob({ jobId: 5 });
  });
  afterAll(() => dbt.close());

  it('takes Token and Bearer, wants trailing slashes and a cause, and wraps everything in the envelope', async () => {
    const run = `${dbt.url}/api/v2/accounts/1/jobs/5/run/`;
    expect(
      (await call(run, 'POST', { Authorization: 'Token dbtc-token' }, { cause: 'a' })).json.status,
    ).toMatchObject({ code: 200, is_success: true });
    expect((await call(run, 'POST', { Authorization: 'Bearer dbtc-token' }, { cause: 'b' })).status).toBe(
      200,
    );
    expect((await call(run, 'POST', { Authorization: 'Token wrong' }, { cause: 'c' })).json).toEqual({
      status: { code: 401, is_success: false, user_message: 'Invalid token.', developer_message: '' },
      data: null,
    });
    const noCause = await call(run, 'POST', { Authorization: 'Token dbtc-token' }, {});
    expect(noCause.status).toBe(400);
    expect(noCause.json.data).toEqual({ cause: ['This field is required.'] });
    const noSlash = await call(
      run.slice(0, -1),
      'POST',
      { Authorization: 'Token dbtc-token' },
      { cause: 'd' },
    );
    expect(noSlash.status).toBe(404);
    expect(noSlash.text).toContain('<h1>Not Found</h1>');
  });

  it('lists runs newest first with the trigger only when asked', async () => {
    const list = async (q: string) =>
      (await call(`${dbt.url}/api/v2/accounts/1/runs/?${q}`, 'GET', { Authorization: 'Token dbtc-token' }))
        .json;
    const plain = (await list('job_definition_id=5&order_by=-id&limit=1')) as {
      data: Array<Record<string, unknown>>;
      extra: Record<string, unknown>;
    };
    expect(plain.data).toHaveLength(1);
    expect(plain.data[0].trigger).toBeUndefined();
    expect(plain.extra.pagination).toEqual({ count: 1, total_count: 2 });
    const related = (await list('job_definition_id=5&order_by=-id&limit=5&include_related=["trigger"]')) as {
      data: Array<{ trigger: { cause: string } }>;
    };
    expect(related.data.map((r) => r.trigger.cause)).toEqual(['b', 'a']);
  });
});

describe('Livy stand-in', () => {
  const livy = new LivyStandIn({ version: '0.8' });
  beforeAll(() => livy.start());
  afterAll(() => livy.close());

  it('answers a POST without X-Requested-By with Jetty’s HTML 400', async () => {
    const res = await call(`${livy.url}/batches`, 'POST', {}, { file: 'x' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('<title>Error 400 Missing Required Header for CSRF protection.</title>');
  });

  it('creates with 201 + Location, refuses a duplicate name (using up an id), finds by name, deletes', async () => {
    const csrf = { 'X-Requested-By': 'me' };
    const created = await call(`${livy.url}/batches`, 'POST', csrf, { file: 'x', name: 'argo-abc' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/batches/0');
    const dup = await call(`${livy.url}/batches`, 'POST', csrf, { file: 'x', name: 'argo-abc' });
    expect(dup.json).toEqual({
      msg: 'Rejected, Reason: Duplicate session name: Some(argo-abc) for session 1',
    });
    expect((await call(`${livy.url}/batches/argo-abc`, 'GET')).json.id).toBe(0);
    expect(
      (await call(`${livy.url}/batches`, 'POST', csrf, { file: 'x', className: 'A', class_name: 'A' })).json
        .msg,
    ).toMatch(/^Unrecognized field "class_name"/);
    expect((await call(`${livy.url}/batches/0`, 'DELETE', csrf)).json).toEqual({ msg: 'deleted' });
    expect((await call(`${livy.url}/batches/0`, 'GET')).json).toEqual({ msg: "Session '0' not found." });
  });
});
