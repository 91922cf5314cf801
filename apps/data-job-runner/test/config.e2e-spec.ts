import { EnvValidationError, startPlugin } from '@app/plugin-kit';
import { dataJobPlugin } from '../src/data-job.plugin.js';
import { PROVIDERS } from '../src/providers/index.js';
import { DatabricksStandIn } from '../stand-ins/index.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  SECRETS,
  sharedSidecar,
  startDataJob,
  uniqueWorkflow,
} from './support.js';

/** The providers, as the body's "exactly one provider block" names them: the table's keys in its order. */
const KEYS = PROVIDERS.keys.join(', ');

const PROD_TOKEN = 'dapi-prod-4d3c2b1a0f9e8d7c6b5a';

/** Two Databricks workspaces (the default and `prod`), each with job 1, and the env naming both. */
function twoWorkspaces(extra: Record<string, string> = {}) {
  const main = new DatabricksStandIn({ token: SECRETS.databricks });
  const prod = new DatabricksStandIn({ token: PROD_TOKEN });
  const env = (): Record<string, string> => ({
    DATABRICKS_HOST: main.url,
    DATABRICKS_TOKEN: SECRETS.databricks,
    DATABRICKS_PROD_HOST: prod.url,
    DATABRICKS_PROD_TOKEN: PROD_TOKEN,
    ...extra,
  });
  const h = sharedSidecar([main, prod], env, () => {
    main.addJob({ jobId: 1 });
    prod.addJob({ jobId: 1 });
  });
  return { main, prod, env, h };
}

describe('data-job: admin connections and body checks', () => {
  const { main, prod, h } = twoWorkspaces();

  it('sends a body with `connection: prod` to the prod workspace with its own token', async () => {
    const { final, replies } = await pollToEnd(
      h,
      dataJob({ databricks: { jobId: 1 }, connection: 'PROD' }, { workflow: uniqueWorkflow() }),
      prod.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    expect(outputs(final).url.startsWith(prod.url)).toBe(true);
    expect(prod.runs).toHaveLength(1);
    expect(main.runs).toHaveLength(0);
    expect(prod.server.calls.every((c) => c.headers.authorization === `Bearer ${PROD_TOKEN}`)).toBe(true);
    expectNoSecrets(h, replies, [PROD_TOKEN, SECRETS.databricks]);
  });

  it.each([
    [
      { databricks: { jobId: 1 }, connection: 'staging' },
      'data-job: invalid config: connection: no databricks connection "staging" for namespace argo (known: default (no connection), prod); the admin adds one with DATABRICKS_STAGING_HOST and DATABRICKS_STAGING_TOKEN',
    ],
    [
      { livy: { file: 's3://x.py' } },
      'data-job: invalid config: no livy connection is configured for this sidecar (the admin sets LIVY_URL)',
    ],
    [
      { wait: true },
      `data-job: invalid config: body: exactly one provider block is required (${KEYS}); got none`,
    ],
    [
      { databricks: { jobId: 1 }, dbtCloud: { jobId: 2 } },
      `data-job: invalid config: body: exactly one provider block is required (${KEYS}); got databricks and dbtCloud`,
    ],
    [
      { databricks: { jobId: 1 }, host: 'https://elsewhere.example' },
      'data-job: invalid config: host: unknown field',
    ],
    [
      { databricks: { jobId: 1, url: 'https://elsewhere.example' } },
      'data-job: invalid config: databricks.url: unknown field',
    ],
    [
      { airflow: { dagId: 'a/../../admin' } },
      'data-job: invalid config: airflow.dagId: must be a DAG id: letters, digits, "_", "." and "-"',
    ],
    [
      { databricks: { jobId: 1 }, pollInterval: '100ms' },
      'data-job: invalid config: pollInterval: must be a Go duration such as 30s or 1m30s between 1s and 1h0m0s',
    ],
  ])('fails %j naming the problem, without calling any upstream', async (body, message) => {
    const calls = main.server.calls.length + prod.server.calls.length;
    const reply = await h.execute(dataJob(body as Record<string, unknown>, { workflow: uniqueWorkflow() }));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ node: { phase: 'Failed', message } });
    expect(main.server.calls.length + prod.server.calls.length).toBe(calls);
  });

  it('answers {} for templates addressed to other plugins', async () => {
    const reply = await h.execute({
      ...dataJob({}),
      template: { name: 'x', inputs: {}, outputs: {}, metadata: {}, plugin: { slack: { text: 'hi' } } },
    });
    expect(reply.body).toEqual({});
  });

  it('refuses to start with a half-configured connection, naming the variable', async () => {
    const start = startPlugin(dataJobPlugin, {
      env: {
        TOKEN_FILE: '/nonexistent',
        PORT: '0',
        DATABRICKS_HOST: 'https://x.cloud.databricks.com',
        AIRFLOW_URL: 'http://airflow:8080',
      },
      logDestination: { write: () => undefined },
    });
    await expect(start).rejects.toThrow(EnvValidationError);
    await expect(start).rejects.toThrow(
      'invalid configuration: DATABRICKS_TOKEN: must be set (DATABRICKS_HOST is set); AIRFLOW_USERNAME/AIRFLOW_PASSWORD or AIRFLOW_TOKEN: must be set',
    );
  });
});

describe('data-job: NAMESPACE_SCOPES', () => {
  const { prod, env, h } = twoWorkspaces({
    NAMESPACE_SCOPES: 'databricks/prod=analytics,etl-*; */*=analytics,etl-*,sandbox',
  });
  const from = (namespace: string, body: Record<string, unknown>) =>
    h.execute(dataJob(body, { workflow: { ...uniqueWorkflow(), namespace } }));

  it('a workflow of an allowed namespace runs on the connection', async () => {
    const reply = await from('etl-nightly', { databricks: { jobId: 1 }, connection: 'prod' });
    expect(reply.body.node?.phase).toBe('Running');
    expect(prod.runs).toHaveLength(1);
  });

  it('another namespace gets Failed naming the field and only the connections open to it; nothing is called', async () => {
    const calls = prod.server.calls.length;
    const closed = await from('sandbox', { databricks: { jobId: 1 }, connection: 'prod' });
    expect(closed.body.node).toEqual({
      phase: 'Failed',
      message:
        'data-job: invalid config: connection: no databricks connection "prod" for namespace sandbox (known: default (no connection)); the admin adds one with DATABRICKS_PROD_HOST and DATABRICKS_PROD_TOKEN',
    });
    expect(prod.server.calls).toHaveLength(calls);
    const nowhere = await from('team-a', { databricks: { jobId: 1 } });
    expect(nowhere.body.node).toEqual({
      phase: 'Failed',
      message:
        'data-job: invalid config: connection: no default databricks connection for namespace team-a (the admin sets DATABRICKS_HOST and DATABRICKS_TOKEN); choose one of: none',
    });
  });

  it('a bad NAMESPACE_SCOPES stops the sidecar at start-up, naming the variable and the entry', async () => {
    const start = startPlugin(dataJobPlugin, {
      env: { ...env(), TOKEN_FILE: '/nonexistent', PORT: '0', NAMESPACE_SCOPES: 'databricks/prod=Analytics' },
      logDestination: { write: () => undefined },
    });
    await expect(start).rejects.toThrow(
      'NAMESPACE_SCOPES: "databricks/prod=Analytics": "Analytics": not a namespace name, a prefix pattern (team-*) or *',
    );
  });
});

describe('data-job: CANCEL_ON_SHUTDOWN', () => {
  const db = new DatabricksStandIn({
    token: SECRETS.databricks,
    lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'TERMINATED/SUCCESS' }],
  });
  const env = (cancel: string): Record<string, string> => ({
    DATABRICKS_HOST: db.url,
    DATABRICKS_TOKEN: SECRETS.databricks,
    CANCEL_ON_SHUTDOWN: cancel,
  });
  beforeAll(async () => {
    await db.start();
    db.addJob({ jobId: 1 }).addJob({ jobId: 2, lifecycle: [{ state: 'TERMINATED/SUCCESS' }] });
  });
  afterAll(() => db.close());

  it('cancels the runs it is waiting for when the sidecar stops, and only those', async () => {
    const h = await startDataJob(env('true'));
    const waiting = await h.execute(dataJob({ databricks: { jobId: 1 } }, { workflow: uniqueWorkflow() }));
    const done = await h.execute(dataJob({ databricks: { jobId: 2 } }, { workflow: uniqueWorkflow() }));
    const fireAndForget = await h.execute(
      dataJob({ databricks: { jobId: 1 }, wait: false }, { workflow: uniqueWorkflow() }),
    );
    expect(done.body.node?.phase).toBe('Succeeded');
    await h.close();
    const cancelled = db.server.calls
      .filter((c) => c.path.endsWith('/runs/cancel'))
      .map((c) => String((c.body as { run_id: number }).run_id));
    expect(cancelled).toEqual([outputs(waiting.body).runId]);
    expect(cancelled).not.toContain(outputs(fireAndForget.body).runId);
    expect(
      h.logs.some((l) => l.msg === 'cancelled on shutdown' && l.runId === outputs(waiting.body).runId),
    ).toBe(true);
  });

  it('leaves runs alone by default (the agent pod may just be evicted)', async () => {
    const h = await startDataJob(env('false'));
    await h.execute(dataJob({ databricks: { jobId: 1 } }, { workflow: uniqueWorkflow() }));
    const before = db.server.count('POST', '/api/2.2/jobs/runs/cancel');
    await h.close();
    expect(db.server.count('POST', '/api/2.2/jobs/runs/cancel')).toBe(before);
  });
});
