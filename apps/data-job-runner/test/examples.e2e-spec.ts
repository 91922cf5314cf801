import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import {
  argoSchemaValidator,
  outputValue,
  runWorkflow,
  schemaProblems,
  type PluginHarness,
} from '@app/local-agent';
import {
  DEMO_CREDENTIALS,
  DEMO_IDS,
  startDemoUpstreams,
  type DataJobDemoUpstreams,
} from '../demo/upstreams.js';
import { expectNoSecrets, startDataJob } from './support.js';
import { PROVIDERS } from '../src/providers/index.js';

const EXAMPLES = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../manifests/data-job-runner/examples',
);
const files = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

interface Template {
  name: string;
  plugin?: Record<string, unknown>;
  outputs?: { parameters?: Array<{ name: string; valueFrom?: { supplied?: object } }> };
}

const read = (
  file: string,
): {
  text: string;
  wf: { metadata: { annotations?: Record<string, string> }; spec: { templates: Template[] } };
} => {
  const text = readFileSync(join(EXAMPLES, file), 'utf8');
  return { text, wf: parse(text) };
};

describe('data-job examples', () => {
  it('has one example per provider and the pipeline DAG', () => {
    const bodies = files.flatMap((f) =>
      read(f).wf.spec.templates.map((t) => t.plugin?.['data-job'] as Record<string, unknown> | undefined),
    );
    expect(PROVIDERS.keys.filter((provider) => !bodies.some((b) => b?.[provider]))).toEqual([]);
    expect(files).toContain('ingest-transform-models.yaml');
  });

  it.each(files)('%s is a valid Argo Workflow whose plugin outputs are declared as supplied', (file) => {
    const { wf } = read(file);
    expect(schemaProblems(argoSchemaValidator('Workflow'), wf)).toEqual([]);
    for (const t of wf.spec.templates.filter((x) => x.plugin)) {
      expect(Object.keys(t.plugin!)).toEqual(['data-job']);
      for (const p of t.outputs?.parameters ?? []) expect(p.valueFrom).toEqual({ supplied: {} });
    }
  });

  describe('run end to end through the local agent', () => {
    let up: DataJobDemoUpstreams;
    let h: PluginHarness;
    beforeAll(async () => {
      up = await startDemoUpstreams();
      h = await startDataJob(up.env);
    });
    afterAll(async () => {
      await h.close();
      await up.close();
    });

    const run = (file: string) =>
      runWorkflow(read(file).text, {
        plugins: [{ name: 'data-job', url: h.url, token: h.token }],
        timeScale: 0.002,
      });

    it.each(files)('%s ends as expected', async (file) => {
      const result = await run(file);
      const expected =
        read(file).wf.metadata.annotations?.['executor-plugins.dev/demo-expect'] ?? 'Succeeded';
      expect([result.phase, result.message]).toEqual([expected, undefined]);
      for (const node of result.nodes.filter((n) => n.type === 'Plugin')) {
        expect(outputValue(node, 'runId')).toBeTruthy();
      }
    });

    it('passes run ids along the pipeline: Airflow → Databricks job parameter → dbt Cloud cause', async () => {
      const result = await run('ingest-transform-models.yaml');
      expect(result.phase).toBe('Succeeded');
      const ingestRun = outputValue(result.node('ingest'), 'runId')!;
      const transformRun = outputValue(result.node('transform'), 'runId')!;
      const databricksRun = up.databricks.runs.find((r) => String(r.runId) === transformRun)!;
      expect(databricksRun.request.job_parameters).toEqual({ date: '2024-01-01', airflow_run_id: ingestRun });
      expect(
        up.airflow.runsOf(DEMO_IDS.airflowIngestDag).find((r) => r.dagRunId === ingestRun)?.request.conf,
      ).toEqual({ date: '2024-01-01' });
      const models = up.dbt.runs.find((r) => String(r.id) === outputValue(result.node('models'), 'runId'))!;
      expect(models.cause).toMatch(
        new RegExp(`^after Databricks run ${transformRun} \\[argo K=[0-9a-f]{32}\\]$`),
      );
      expect(outputValue(result.node('transform'), 'notebookOutput')).toBe('{"rows_written": 1234}');
      expectNoSecrets(
        h,
        [result.nodes],
        Object.values(DEMO_CREDENTIALS)
          .map(String)
          .filter((s) => s.length > 8),
      );
    });

    it('runs the Dataproc batch under its batch id, with a token from the stand-in, and masks the key', async () => {
      const result = await run('dataproc-pyspark-batch.yaml');
      expect(result.phase).toBe('Succeeded');
      const runId = outputValue(
        result.nodes.find((n) => n.type === 'Plugin')!,
        'runId',
      );
      expect(up.dataproc.batch(runId!)?.request.pysparkBatch).toMatchObject({
        args: ['--day', '2024-01-01'],
      });
      const key = (JSON.parse(up.dataprocCredentials) as { private_key: string }).private_key;
      expectNoSecrets(
        h,
        [result.nodes],
        key.split('\n').filter((line) => line.length > 40),
      );
    });

    it('runs the Cloud Run job with its overrides and the execution key, and masks the key', async () => {
      const result = await run('cloud-run-job.yaml');
      expect(result.phase).toBe('Succeeded');
      const runId = outputValue(
        result.nodes.find((n) => n.type === 'Plugin')!,
        'runId',
      );
      const execution = up.cloudRun.execution(runId!)!;
      expect(execution.containers[0]).toMatchObject({
        args: ['--day', '2024-01-01'],
        env: [
          { name: 'EXPORT_BUCKET', value: 'gs://etl-exports/orders' },
          { name: 'ARGO_EXECUTION_KEY', value: expect.stringMatching(/^[0-9a-f]{64}$/) },
        ],
      });
      const key = (JSON.parse(up.cloudRunCredentials) as { private_key: string }).private_key;
      expectNoSecrets(
        h,
        [result.nodes],
        key.split('\n').filter((line) => line.length > 40),
      );
    });

    it('runs the Data Factory pipeline with its parameters and the execution key, and masks the secret', async () => {
      const result = await run('data-factory-pipeline-run.yaml');
      expect(result.phase).toBe('Succeeded');
      const runId = outputValue(
        result.nodes.find((n) => n.type === 'Plugin')!,
        'runId',
      );
      expect(up.dataFactory.run(runId!)?.parameters).toEqual({
        day: '2024-01-01',
        argoExecutionKey: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expectNoSecrets(
        h,
        [result.nodes],
        [DEMO_CREDENTIALS.dataFactoryClientSecret, ...up.dataFactory.tokens.issued],
      );
    });

    it('runs the Vertex AI pipeline under its pipeline job id, with its parameters, and masks the key', async () => {
      const result = await run('vertex-pipelines-run.yaml');
      expect(result.phase).toBe('Succeeded');
      const runId = outputValue(
        result.nodes.find((n) => n.type === 'Plugin')!,
        'runId',
      );
      expect(runId).toMatch(/^churn-[0-9a-f]{32}$/);
      expect(up.vertexPipelines.job(runId!)?.request.runtimeConfig).toMatchObject({
        parameterValues: { day: '2024-01-01' },
      });
      const key = (JSON.parse(up.vertexPipelinesCredentials) as { private_key: string }).private_key;
      expectNoSecrets(
        h,
        [result.nodes],
        key.split('\n').filter((line) => line.length > 40),
      );
    });

    it('runs the Snowflake statement with its day as a binding, and masks the key', async () => {
      const result = await run('snowflake-statement.yaml');
      expect(result.phase).toBe('Succeeded');
      const runId = outputValue(
        result.nodes.find((n) => n.type === 'Plugin')!,
        'runId',
      );
      const statement = up.snowflake.statements.find((s) => s.handle === runId)!;
      expect(statement.request.bindings).toEqual({ '1': { type: 'TEXT', value: '2024-01-01' } });
      expectNoSecrets(
        h,
        [result.nodes],
        up.snowflakePrivateKey.split('\n').filter((line) => line.length > 40),
      );
    });
  });
});
