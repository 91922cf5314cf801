// The built sidecar (dist/apps/data-job-runner, as the image ships it) loads each provider's libraries on its
// first call: a CommonJS package reads differently bundled than from the sources the other suites run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeArgs, startPluginProcess, type PluginProcess } from '@app/local-agent';
import { startDemoUpstreams, type DataJobDemoUpstreams } from '../demo/upstreams.js';

const root = join(import.meta.dirname, '../../..');
const TOKEN = 'bcdfghjklmnpqrstvwxz2456789bcdfg';

describe('the built data-job sidecar', () => {
  let up: DataJobDemoUpstreams;
  let proc: PluginProcess;
  const dir = mkdtempSync(join(tmpdir(), 'data-job-bundle-'));
  beforeAll(async () => {
    up = await startDemoUpstreams();
    writeFileSync(join(dir, 'token'), TOKEN);
    proc = await startPluginProcess('data-job-runner', join(root, 'dist/apps/data-job-runner/main.js'), {
      ...up.env,
      TOKEN_FILE: join(dir, 'token'),
    });
  }, 60_000);
  afterAll(async () => {
    await proc?.stop();
    await up?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const untilFinal = async (body: Record<string, unknown>) => {
    const request = executeArgs({ 'data-job': body }, { templateName: Object.keys(body)[0] });
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${proc.url}/api/v1/template.execute`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify(request),
      });
      const { node } = (await res.json()) as { node?: { phase: string; message?: string } };
      if (node?.phase !== 'Running') return node;
    }
    throw new Error('still running after 10 calls');
  };

  it.each([
    [
      'dataproc (google-auth-library)',
      { dataproc: { batch: { pysparkBatch: { mainPythonFileUri: 'gs://b/x.py' } } } },
    ],
    ['cloudRun (google-auth-library)', { cloudRun: { job: 'orders-export' } }],
    [
      'vertexPipelines (google-auth-library)',
      { vertexPipelines: { pipelineJob: { templateUri: 'https://europe-west1-kfp.pkg.dev/p/r/t/v1' } } },
    ],
    ['snowflake (node:crypto)', { snowflake: { statement: 'SELECT 1' } }],
    [
      'dataFactory (@azure/identity, over https)',
      { dataFactory: { pipeline: 'copy_orders', parameters: { day: '2024-01-01' } } },
    ],
  ])('runs %s to its end', async (_what, body) => {
    expect(await untilFinal(body)).toMatchObject({ phase: 'Succeeded' });
  });
});
