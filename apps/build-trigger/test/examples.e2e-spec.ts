import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import {
  argoSchemaValidator,
  outputValue,
  runWorkflow,
  schemaProblems,
  startHarness,
  type PluginHarness,
} from '@app/local-agent';
import { buildTriggerPlugin } from '../src/build-trigger.plugin.js';
import { PROVIDERS } from '../src/providers/index.js';
import { DEMO_CREDENTIALS, startDemoUpstreams, type BuildDemoUpstreams } from '../demo/upstreams.js';

const MANIFESTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../manifests/build-trigger');
const EXAMPLES = join(MANIFESTS, 'examples');
const files = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

interface Template {
  name: string;
  plugin?: Record<string, Record<string, unknown>>;
  outputs?: { parameters?: Array<{ name: string; valueFrom?: unknown }> };
}
const read = (file: string) => {
  const text = readFileSync(join(EXAMPLES, file), 'utf8');
  return {
    text,
    wf: parse(text) as {
      metadata: { annotations?: Record<string, string> };
      spec: { templates: Template[] };
    },
  };
};

describe('build-trigger manifest and examples', () => {
  it('plugin.yaml is an ExecutorPlugin named build-trigger on port 10421 whose credentials all come from a Secret', () => {
    const plugin = parse(readFileSync(join(MANIFESTS, 'plugin.yaml'), 'utf8'));
    expect(plugin).toMatchObject({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ExecutorPlugin',
      metadata: { name: 'build-trigger' },
    });
    const container = plugin.spec.sidecar.container;
    expect(container.ports).toEqual([{ containerPort: 10421 }]);
    expect(container.name).toBe('build-trigger-executor-plugin');
    for (const env of container.env as Array<{
      name: string;
      value?: string;
      valueFrom?: { secretKeyRef?: object };
    }>) {
      if (/TOKEN|SECRET|PASSWORD|KEY/.test(env.name)) expect(env.valueFrom?.secretKeyRef).toBeDefined();
    }
    expect(container.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
  });

  it('has one example per provider and the GitHub → GitLab DAG', () => {
    const bodies = files.flatMap((f) => read(f).wf.spec.templates.map((t) => t.plugin?.build));
    expect(PROVIDERS.keys.filter((provider) => !bodies.some((b) => b?.[provider]))).toEqual([]);
    expect(files).toContain('github-then-gitlab-dag.yaml');
  });

  it.each(files)('%s is valid against Argo’s schema; plugin outputs are declared as supplied', (file) => {
    const { wf } = read(file);
    expect(schemaProblems(argoSchemaValidator('Workflow'), wf)).toEqual([]);
    for (const t of wf.spec.templates.filter((x) => x.plugin)) {
      expect(Object.keys(t.plugin!)).toEqual(['build']);
      for (const p of t.outputs?.parameters ?? []) expect(p.valueFrom).toEqual({ supplied: {} });
    }
  });

  describe('run end to end through the local agent against the demo upstreams', () => {
    let up: BuildDemoUpstreams;
    let h: PluginHarness;
    beforeAll(async () => {
      up = await startDemoUpstreams();
      h = await startHarness(buildTriggerPlugin, { env: up.env });
    });
    afterAll(async () => {
      await h.close();
      await up.close();
    });
    const run = (file: string) =>
      runWorkflow(read(file).text, {
        plugins: [{ name: 'build', url: h.url, token: h.token }],
        timeScale: 0.005,
      });

    it.each(files)('%s ends as expected', async (file) => {
      const result = await run(file);
      const expected =
        read(file).wf.metadata.annotations?.['executor-plugins.dev/demo-expect'] ?? 'Succeeded';
      expect([result.phase, result.message]).toEqual([expected, undefined]);
      for (const node of result.nodes.filter((n) => n.type === 'Plugin'))
        expect(outputValue(node, 'id')).toMatch(/^\d+$/);
    });

    it('passes the GitHub run id to the GitLab deploy pipeline', async () => {
      const result = await run('github-then-gitlab-dag.yaml');
      expect(result.phase).toBe('Succeeded');
      const runId = outputValue(result.node('build'), 'id')!;
      const pipelineId = outputValue(result.node('deploy'), 'id')!;
      const pipeline = up.gitlab.pipelinesOf('acme/deploy').find((p) => String(p.id) === pipelineId)!;
      expect(pipeline.variables).toMatchObject({
        DEPLOY_ENV: 'production',
        BUILD_RUN_ID: runId,
        BUILD_URL: `https://github.example/acme/webapp/actions/runs/${runId}`,
      });
      expect(
        up.github.runsOf('acme/webapp', 'ci.yml').find((r) => String(r.id) === runId)?.inputs,
      ).toMatchObject({ environment: 'production' });
      const everything = h.logText() + JSON.stringify(result.nodes);
      for (const secret of Object.values(DEMO_CREDENTIALS).filter(
        (s) => s.length > 8 && s !== DEMO_CREDENTIALS.jenkinsUser,
      )) {
        expect(everything).not.toContain(secret);
      }
    });
  });
});
