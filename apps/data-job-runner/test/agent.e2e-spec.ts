// Each provider through the local agent (Argo's RPC client and workflow walker): success with the arguments
// intact, failure, cancel on timeout, faults while polling, a sidecar restart mid-run, an invalid body.
import {
  outputValue,
  runWorkflow,
  type AgentNode,
  type StandInRequest,
  type StandInServer,
  type WorkflowResult,
  type WorkflowShape,
} from '@app/local-agent';
import { DEMO_CREDENTIALS, startDemoUpstreams, type DataJobDemoUpstreams } from '../demo/upstreams.js';
import { startRestartableSidecar, type RestartableSidecar } from './support.js';

type Provider = 'databricks' | 'airflow' | 'dbtCloud' | 'livy';

interface ProviderCase {
  provider: Provider;
  server: () => StandInServer;
  /** Succeeds; its arguments must arrive as `args` says. */
  ok: Record<string, unknown>;
  args: (runId: string) => unknown;
  expectedArgs: unknown;
  failing: Record<string, unknown>;
  failure: RegExp;
  slow: Record<string, unknown>;
  /** Runs upstream with this run id (exactly one expected). */
  runs: (runId: string) => number;
  cancelled: (runId: string) => boolean;
  /** The status reads, where faults are injected. */
  isPoll: (req: StandInRequest) => boolean;
  bad: Record<string, unknown>;
  badMessage: string;
}

let up: DataJobDemoUpstreams;

const cases: ProviderCase[] = [
  {
    provider: 'databricks',
    server: () => up.databricks.server,
    ok: { jobId: 3000, jobParameters: { date: '2024-02-29', retries: 3, dry: false } },
    args: (id) => up.databricks.runs.find((r) => String(r.runId) === id)?.request.job_parameters,
    expectedArgs: { date: '2024-02-29', retries: '3', dry: 'false' },
    failing: { jobId: 3001 },
    failure: /^Databricks run \d+ failed \(TERMINATED\/FAILED\): Task etl failed/,
    slow: { jobId: 3002 },
    runs: (id) => up.databricks.runs.filter((r) => String(r.runId) === id).length,
    cancelled: (id) => up.databricks.runs.some((r) => String(r.runId) === id && r.cancelled),
    isPoll: (req) => req.path.endsWith('/runs/get'),
    bad: { jobId: 3000, pythonParams: { a: 1 } },
    badMessage:
      'data-job: invalid config: databricks.pythonParams: must be a list of strings, numbers or booleans',
  },
  {
    provider: 'airflow',
    server: () => up.airflow.server,
    ok: { dagId: 'agent_ok', conf: { date: '2024-02-29', nested: { list: [1, 'two', null], flag: true } } },
    args: (id) => up.airflow.runs.find((r) => r.dagRunId === id)?.request.conf,
    expectedArgs: { date: '2024-02-29', nested: { list: [1, 'two', null], flag: true } },
    failing: { dagId: 'agent_fail' },
    failure: /^Airflow run \S+ failed \(failed\): failed tasks: publish/,
    slow: { dagId: 'agent_slow' },
    runs: (id) => up.airflow.runs.filter((r) => r.dagRunId === id).length,
    cancelled: (id) =>
      up.airflow.runs.some((r) => r.dagRunId === id && r.patches.some((p) => p.state === 'failed')),
    isPoll: (req) => req.method === 'GET' && /\/dagRuns\/[^/]+$/.test(req.path),
    bad: { dagId: 'agent_ok', logicalDate: 'yesterday' },
    badMessage:
      'data-job: invalid config: airflow.logicalDate: must include a timezone (Z or ±hh:mm); airflow.logicalDate: must be a valid ISO 8601 date string',
  },
  {
    provider: 'dbtCloud',
    server: () => up.dbt.server,
    ok: { jobId: 3000, stepsOverride: ['dbt run -s "tag:a b"', 'dbt test'], gitBranch: 'feature/x' },
    args: (id) => {
      const run = up.dbt.runs.find((r) => String(r.id) === id);
      return run && { steps: run.request.steps_override, branch: run.request.git_branch };
    },
    expectedArgs: { steps: ['dbt run -s "tag:a b"', 'dbt test'], branch: 'feature/x' },
    failing: { jobId: 3001 },
    failure: /^dbt Cloud run \d+ failed \(Error \(20\)\): Compilation Error/,
    slow: { jobId: 3002 },
    runs: (id) => up.dbt.runs.filter((r) => String(r.id) === id).length,
    cancelled: (id) => up.dbt.runs.some((r) => String(r.id) === id && r.cancelled),
    isPoll: (req) => req.method === 'GET' && /\/runs\/\d+\/$/.test(req.path),
    bad: { jobId: 3000, gitBranch: '' },
    badMessage: 'data-job: invalid config: dbtCloud.gitBranch: should not be empty',
  },
  {
    provider: 'livy',
    server: () => up.livy.server,
    ok: { file: 's3://agent/ok.py', args: ['--in', 's3://a b/c', '--n', 7], conf: { 'spark.x': 'y z' } },
    args: (id) => {
      const batch = up.livy.created.find((b) => String(b.id) === id);
      return batch && { args: batch.request.args, conf: batch.request.conf };
    },
    expectedArgs: { args: ['--in', 's3://a b/c', '--n', '7'], conf: { 'spark.x': 'y z' } },
    failing: { file: 's3://agent/fail.py' },
    failure: /^Livy run \d+ failed \(dead\): java.lang.OutOfMemoryError: Java heap space/,
    slow: { file: 's3://agent/slow.py' },
    runs: (id) => up.livy.created.filter((b) => String(b.id) === id).length,
    cancelled: (id) => up.livy.server.calls.some((c) => c.method === 'DELETE' && c.path === `/batches/${id}`),
    isPoll: (req) => req.method === 'GET' && /^\/batches\/\d+$/.test(req.path),
    bad: { file: 's3://agent/ok.py', numExecutors: 0 },
    badMessage: 'data-job: invalid config: livy.numExecutors: must not be less than 1',
  },
];

/** The workflow's one plugin node (the entrypoint, so its display name is the workflow name). */
const pluginNode = (result: WorkflowResult): AgentNode => result.nodes.find((n) => n.type === 'Plugin')!;

const OUTPUTS = ['provider', 'runId', 'url', 'state', 'upstreamState', 'duration'];

function workflow(body: Record<string, unknown>): WorkflowShape {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'agent-e2e-' },
    spec: {
      entrypoint: 'job',
      templates: [
        {
          name: 'job',
          outputs: { parameters: OUTPUTS.map((name) => ({ name, valueFrom: { supplied: {} } })) },
          plugin: { 'data-job': JSON.parse(JSON.stringify(body)) as Record<string, unknown> },
        },
      ],
    },
  };
}

describe('data-job through the local agent', () => {
  let sidecar: RestartableSidecar;
  const run = (body: Record<string, unknown>, options: { timeScale?: number; onRequeue?: () => void } = {}) =>
    runWorkflow(workflow(body), {
      plugins: [{ name: 'data-job', url: sidecar.url, token: sidecar.token }],
      timeScale: options.timeScale ?? 0.01,
      rpc: { backoffMs: 20 },
      onEvent: (e) => e.kind === 'requeue' && options.onRequeue?.(),
    });

  beforeAll(async () => {
    up = await startDemoUpstreams();
    up.databricks
      .addJob({
        jobId: 3000,
        lifecycle: [{ state: 'PENDING' }, { state: 'RUNNING', polls: 3 }, { state: 'TERMINATED/SUCCESS' }],
      })
      .addJob({
        jobId: 3001,
        lifecycle: [
          { state: 'RUNNING' },
          { state: 'TERMINATED/FAILED', message: 'Task etl failed with message: division by zero.' },
        ],
      })
      .addJob({
        jobId: 3002,
        lifecycle: [{ state: 'RUNNING', polls: 100_000 }, { state: 'TERMINATED/SUCCESS' }],
      });
    up.airflow
      .addDag({
        dagId: 'agent_ok',
        lifecycle: [{ state: 'queued' }, { state: 'running', polls: 3 }, { state: 'success' }],
      })
      .addDag({
        dagId: 'agent_fail',
        lifecycle: [{ state: 'running' }, { state: 'failed' }],
        failedTasks: ['publish'],
      })
      .addDag({
        dagId: 'agent_slow',
        lifecycle: [{ state: 'running', polls: 100_000 }, { state: 'success' }],
      });
    up.dbt
      .addJob({ jobId: 3000, lifecycle: [{ state: 1 }, { state: 3, polls: 3 }, { state: 10 }] })
      .addJob({
        jobId: 3001,
        lifecycle: [{ state: 3 }, { state: 20, message: "Compilation Error in model 'orders'" }],
      })
      .addJob({ jobId: 3002, lifecycle: [{ state: 3, polls: 100_000 }, { state: 10 }] });
    up.livy
      .addApplication('s3://agent/ok.py', [
        { state: 'starting' },
        { state: 'running', polls: 3 },
        { state: 'success' },
      ])
      .addApplication('s3://agent/fail.py', [
        { state: 'running' },
        { state: 'dead', message: 'java.lang.OutOfMemoryError: Java heap space' },
      ])
      .addApplication('s3://agent/slow.py', [{ state: 'running', polls: 100_000 }, { state: 'success' }]);
    sidecar = await startRestartableSidecar(up.env);
  });
  afterAll(async () => {
    await sidecar?.close();
    await up?.close();
  });
  afterEach(() => {
    for (const c of cases) c.server().faults.clear();
  });

  describe.each(cases)('$provider', (c) => {
    it('succeeds with the arguments intact upstream and exactly one run', async () => {
      const result = await run({ [c.provider]: c.ok, pollInterval: '5s' });
      const node = pluginNode(result);
      expect([result.phase, node.message]).toEqual(['Succeeded', expect.stringMatching(/ succeeded \(/)]);
      const runId = outputValue(node, 'runId')!;
      expect(c.args(runId)).toEqual(c.expectedArgs);
      expect(c.runs(runId)).toBe(1);
      expect(outputValue(node, 'provider')).toBe(c.provider);
      expect(outputValue(node, 'state')).toBe('succeeded');
    });

    it('fails with the upstream state and its message', async () => {
      const result = await run({ [c.provider]: c.failing, pollInterval: '5s' });
      expect(result.phase).toBe('Failed');
      expect(pluginNode(result).message).toMatch(c.failure);
      expect(outputValue(pluginNode(result), 'state')).toBe('failed');
    });

    it('cancels the run upstream when the timeout expires', async () => {
      const result = await run(
        { [c.provider]: c.slow, timeout: '1s', pollInterval: '10s' },
        { timeScale: 0.2 },
      );
      const node = pluginNode(result);
      expect(result.phase).toBe('Failed');
      expect(node.message).toMatch(/ timed out after 1s and was cancelled \(last state /);
      expect(c.cancelled(outputValue(node, 'runId')!)).toBe(true);
    });

    it('rides out 5xx, 429, resets and hangs while polling, with one run', async () => {
      c.server().faults.randomly({
        seed: 7,
        rate: 0.4,
        match: c.isPoll,
        faults: [
          { kind: 'status', status: 503 },
          { kind: 'status', status: 502 },
          { kind: 'rate-limit', retryAfterSeconds: 2 },
          { kind: 'reset' },
          { kind: 'hang' },
        ],
      });
      const result = await run({ [c.provider]: c.ok, pollInterval: '5s' });
      expect(c.server().faults.injected).toBeGreaterThan(0);
      expect(result.phase).toBe('Succeeded');
      expect(c.runs(outputValue(pluginNode(result), 'runId')!)).toBe(1);
    });

    it('starts exactly one run when the sidecar restarts mid-run', async () => {
      let restarting: Promise<void> | undefined;
      const restarts = sidecar.restarts;
      const result = await run(
        { [c.provider]: c.ok, pollInterval: '10s' },
        { onRequeue: () => (restarting ??= sidecar.restart()) },
      );
      await restarting;
      expect(sidecar.restarts).toBe(restarts + 1);
      expect(result.phase).toBe('Succeeded');
      const runId = outputValue(pluginNode(result), 'runId')!;
      expect(c.runs(runId)).toBe(1);
      expect(c.args(runId)).toEqual(c.expectedArgs);
    });

    it('fails an invalid body naming the field, without calling the upstream', async () => {
      const calls = c.server().calls.length;
      const result = await run({ [c.provider]: c.bad });
      expect(result.phase).toBe('Failed');
      expect(pluginNode(result).message).toBe(c.badMessage);
      expect(c.server().calls.length).toBe(calls);
    });
  });

  it('never shows a credential in logs, messages or outputs', () => {
    const text = sidecar.logText();
    expect(text).toContain('run finished');
    for (const secret of Object.values(DEMO_CREDENTIALS)
      .map(String)
      .filter((s) => s.length > 8))
      expect(text).not.toContain(secret);
    for (const jwt of up.airflow.jwts.keys()) expect(text).not.toContain(jwt);
  });
});
