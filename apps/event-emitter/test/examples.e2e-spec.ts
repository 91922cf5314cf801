// The examples: valid against Argo's JSON schema, and run end to end: the emitting workflow through the local
// agent, the event through the local endpoint, the submitted workflow through the local agent again.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  argoSchemaValidator,
  loadManifestFile,
  runWorkflow,
  schemaProblems,
  startHarness,
  type PluginHarness,
} from '@app/local-agent';
import { type AgentPlugin } from '@app/argo-agent';
import { loadManifestFolder, testBindings } from '@app/events';
import { EXAMPLES_DIR, startArgoDemoServer, type EventEmitterDemo } from '../demo/upstreams.js';
import { eventEmitterPlugin } from '../src/event-emitter.plugin.js';
import './support.js';

const files = readdirSync(EXAMPLES_DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const documents = (file: string) =>
  parseAllDocuments(readFileSync(join(EXAMPLES_DIR, file), 'utf8')).map(
    (d) => d.toJSON() as { kind: string },
  );

describe('examples: valid Argo objects', () => {
  it('there are the emitting workflow, the binding and the template it submits', () => {
    expect(files).toEqual([
      'deploy-on-build-finished.yaml',
      'deploy-template.yaml',
      'emit-build-finished.yaml',
    ]);
    expect(files.flatMap((f) => documents(f).map((d) => d.kind))).toEqual([
      'WorkflowEventBinding',
      'WorkflowTemplate',
      'Workflow',
    ]);
  });

  it.each(files)("%s validates against Argo's JSON schema", (file) => {
    for (const doc of documents(file)) expect(schemaProblems(argoSchemaValidator(doc.kind), doc)).toEqual([]);
  });

  it('plugin outputs are declared with valueFrom.supplied', () => {
    const wf = loadManifestFile(join(EXAMPLES_DIR, 'emit-build-finished.yaml')).workflows[0]!;
    for (const t of wf.spec.templates ?? [])
      for (const p of t.outputs?.parameters ?? []) expect(p.valueFrom).toEqual({ supplied: {} });
  });

  const KEY = 'ab12cd34ef56ab78cd90ef12ab34cd56ef78ab90cd12ef34ab56cd78ef90ab12';
  /** The example bindings against a build-finished event for shop-api 1.14.2 with these extra headers. */
  const testExampleEvent = (headers: Array<[string, string]>) =>
    testBindings({
      objects: loadManifestFolder(EXAMPLES_DIR).objects,
      body: Buffer.from('{"app":"shop-api","version":"1.14.2","commit":"3f2a9c1"}'),
      headers: [['X-Event-Type', 'build-finished'], ...headers, ['X-Argo-Plugin-Key', KEY]],
      namespace: 'argo',
      discriminator: '',
    });

  it('the binding tester: the example event matches and names the workflow after x-argo-plugin-key', () => {
    const report = testExampleEvent([['X-Source-Workflow', 'build-x7k2p']]);
    expect(report.ok).toBe(true);
    expect(report.bindings[0]).toMatchObject({
      name: 'deploy-on-build-finished',
      outcome: 'matched',
      hints: [],
      workflow: {
        name: 'deploy-shop-api-ab12cd34ef56ab78',
        parameters: [
          { name: 'app', value: 'shop-api' },
          { name: 'version', value: '1.14.2' },
          { name: 'requested-by', value: 'build-x7k2p' },
        ],
      },
    });
  });

  it('the binding tester: without x-source-workflow the binding still submits, requested by "unknown"', () => {
    const report = testExampleEvent([]);
    expect(report.ok).toBe(true);
    expect(report.bindings[0]).toMatchObject({
      outcome: 'matched',
      workflow: { parameters: expect.arrayContaining([{ name: 'requested-by', value: 'unknown' }]) },
    });
  });
});

describe('examples: end to end (agent → plugin → event endpoint → binding → agent → plugin)', () => {
  let demo: EventEmitterDemo;
  let h: PluginHarness;
  const plugins: AgentPlugin[] = [];
  beforeAll(async () => {
    demo = await startArgoDemoServer({ run: { plugins: () => plugins, timeScale: 0.01 } });
    h = await startHarness(eventEmitterPlugin, { env: demo.env });
    plugins.push({ name: 'workflow-event', url: h.url, token: h.token });
  });
  afterAll(async () => {
    await h.close();
    await demo.close();
  });

  it('emit-build-finished submits deploy, whose announce step sends the deployed event', async () => {
    const example = loadManifestFile(join(EXAMPLES_DIR, 'emit-build-finished.yaml'));
    const result = await runWorkflow(example.workflows[0]!, { plugins, timeScale: 0.01 });
    expect(result.phase).toBe('Succeeded');
    expect(result.node('build-finished')?.outputs?.parameters).toContainEqual({
      name: 'status',
      value: 'accepted',
    });
    await demo.endpoint.idle();
    const [deploy] = demo.endpoint.workflows();
    expect(deploy!.metadata.name).toMatch(/^deploy-shop-api-[0-9a-f]{16}$/);
    expect(deploy!.metadata.labels).toMatchObject({
      app: 'shop-api',
      'workflows.argoproj.io/workflow-event-binding': 'deploy-on-build-finished',
      'workflows.argoproj.io/creator': 'system-serviceaccount-argo-workflow-event-demo',
    });
    expect(deploy!.spec.arguments!.parameters).toEqual([
      { name: 'app', value: 'shop-api' },
      { name: 'version', value: '1.14.2' },
      { name: 'requested-by', value: result.name },
    ]);
    const [run] = demo.endpoint.runs();
    expect(run!.result!.phase).toBe('Succeeded');
    expect(run!.result!.node('announce')?.phase).toBe('Succeeded');
    expect(
      demo.endpoint.received().map((e) => [e.discriminator, e.metadata['x-event-type'], e.payload]),
    ).toEqual([
      ['', ['build-finished'], { app: 'shop-api', version: '1.14.2', commit: '3f2a9c1' }],
      [
        'deployments',
        ['deployed'],
        { app: 'shop-api', version: '1.14.2', requestedBy: result.name, deployment: deploy!.metadata.name },
      ],
    ]);
    expect(demo.endpoint.events()).toEqual([]);
  });
});
