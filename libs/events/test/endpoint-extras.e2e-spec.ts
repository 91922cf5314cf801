// The emulator's extras around the conformance cases: the bindings folder, --out, the listings and --run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { StandInServer } from '@app/local-agent';
import { startEventEndpoint } from '../src/index.js';
import { binding, endpoint, send, submitWft, TOKENS } from './support.js';

const EVENT = '/api/v1/events/argo/';
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'events-test-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const BINDING_YAML = `apiVersion: argoproj.io/v1alpha1
kind: WorkflowEventBinding
metadata:
  name: on-event
spec:
  event:
    selector: payload.message != nil
  submit:
    workflowTemplateRef:
      name: hello
    arguments:
      parameters:
        - name: message
          valueFrom:
            event: payload.message
`;
const TEMPLATE_YAML = `apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata:
  name: hello
spec:
  entrypoint: main
  arguments:
    parameters:
      - name: message
  templates:
    - name: main
      inputs:
        parameters:
          - name: message
      plugin:
        echo:
          text: '{{inputs.parameters.message}}'
`;

describe('the bindings folder', () => {
  it('loads bindings and templates (multi-document, nested folders), skips other kinds', async () => {
    mkdirSync(join(dir, 'nested'));
    writeFileSync(join(dir, 'binding.yaml'), BINDING_YAML);
    writeFileSync(
      join(dir, 'nested', 'all.yml'),
      `${TEMPLATE_YAML}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n`,
    );
    const ep = await startEventEndpoint({ bindingsDir: dir, tokens: TOKENS, log: () => undefined });
    try {
      expect(ep.skipped).toEqual([expect.stringMatching(/nested\/all\.yml: ConfigMap x$/)]);
      expect((await send(ep.url, EVENT, { body: { message: 'hi' } })).status).toBe(200);
      await ep.idle();
      expect(ep.workflows().map((w) => w.spec.arguments)).toEqual([
        { parameters: [{ name: 'message', value: 'hi' }] },
      ]);
    } finally {
      await ep.close();
    }
  });

  it('a bad file is an error naming the file, the object and the field', async () => {
    writeFileSync(
      join(dir, 'bad.yaml'),
      BINDING_YAML.replace('  event:\n    selector: payload.message != nil\n', '  event: {}\n'),
    );
    await expect(startEventEndpoint({ bindingsDir: dir, tokens: TOKENS })).rejects.toThrow(
      /bad\.yaml: WorkflowEventBinding\/on-event: spec\.event: must have required property selector/,
    );
    writeFileSync(join(dir, 'bad.yaml'), 'kind: [');
    await expect(startEventEndpoint({ bindingsDir: dir, tokens: TOKENS })).rejects.toThrow(/bad\.yaml: /);
  });

  it('the same binding twice is an error naming both files', async () => {
    writeFileSync(join(dir, 'a.yaml'), BINDING_YAML);
    writeFileSync(join(dir, 'b.yaml'), BINDING_YAML);
    await expect(startEventEndpoint({ bindingsDir: dir, tokens: TOKENS })).rejects.toThrow(
      /b\.yaml: WorkflowEventBinding\/on-event is already defined in .*a\.yaml/,
    );
  });
});

describe('--out and the read-only listings', () => {
  it('writes each workflow to <out>/<namespace>/<name>.yaml', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft({ p: 'payload.p' }) })], {
      outDir: dir,
    });
    await send(ep.url, EVENT, { body: { p: 'v' } });
    const [wf] = ep.workflows();
    const written = parse(readFileSync(join(dir, 'argo', `${wf!.metadata.name}.yaml`), 'utf8')) as unknown;
    expect(written).toEqual(wf);
  });

  it('GET /api/v1/workflows/{ns} lists workflows (label selector); GET /api/v1/workflow-event-bindings/{ns} the bindings', async () => {
    const ep = await endpoint([
      binding('a', { selector: 'true', submit: submitWft() }),
      binding('b', { selector: 'true', submit: submitWft() }),
    ]);
    await send(ep.url, EVENT, { body: {} });
    const all = await send(ep.url, '/api/v1/workflows/argo', { method: 'GET' });
    expect((all.json() as { items: unknown[] }).items).toHaveLength(2);
    const selected = await send(
      ep.url,
      '/api/v1/workflows/argo?listOptions.labelSelector=workflows.argoproj.io/workflow-event-binding%3Db',
      { method: 'GET' },
    );
    const items = (selected.json() as { items: Array<{ metadata: { labels: Record<string, string> } }> })
      .items;
    expect(items.map((w) => w.metadata.labels['workflows.argoproj.io/workflow-event-binding'])).toEqual([
      'b',
    ]);
    const bindings = await send(ep.url, '/api/v1/workflow-event-bindings/argo', { method: 'GET' });
    expect(
      (bindings.json() as { items: Array<{ metadata: { name: string } }> }).items.map((b) => b.metadata.name),
    ).toEqual(['a', 'b']);
    expect((await send(ep.url, '/api/v1/workflows/argo', { method: 'GET', token: null })).status).toBe(401);
    expect(
      (await send(ep.url, '/api/v1/workflows/argo', { method: 'GET', token: 'cannot-list-000' })).status,
    ).toBe(403);
  });
});

describe('GET /__stand-in/count, the counter the conformance kit and the reliability suites read', () => {
  const count = async (url: string, query: string) =>
    (await send(url, `/__stand-in/count${query}`, { method: 'GET' })).json();

  it('answers only a caller with a valid token (401 otherwise, like every other route)', async () => {
    const ep = await endpoint([]);
    for (const token of [null, 'wrong']) {
      const res = await send(ep.url, '/__stand-in/count', { method: 'GET', token });
      expect([res.status, (res.json() as { code: number }).code]).toEqual([401, 16]);
    }
    expect(await count(ep.url, '')).toEqual({ name: 'argo-server', count: 0 });
  });

  it('counts events received (by namespace and discriminator) and, with binding=, the workflows it submitted', async () => {
    const named = submitWft({}, { metadata: { name: '"run-" + payload.id' } });
    const ep = await endpoint([binding('named', { selector: 'true', submit: named })], {
      asyncDispatch: true,
      dispatchDelayMs: 100,
    });
    ep.pauseWorkers();
    for (const id of ['a', 'b', 'a']) await send(ep.url, `/api/v1/events/argo/d${id}`, { body: { id } });
    await send(ep.url, '/api/v1/events/argo/other', { body: { id: 'c' } });
    expect(await count(ep.url, '')).toEqual({ name: 'argo-server', count: 4 });
    expect(await count(ep.url, '?discriminator=da')).toEqual({ name: 'argo-server', count: 2 });
    expect(await count(ep.url, '?namespace=elsewhere')).toEqual({ name: 'argo-server', count: 0 });
    // Queued events are dispatched first; the repeated "a" is refused as AlreadyExists and adds nothing.
    const counting = count(ep.url, '?binding=named');
    ep.resumeWorkers();
    expect(await counting).toEqual({ name: 'argo-server workflows', count: 3 });
    expect(await count(ep.url, '?binding=other')).toEqual({ name: 'argo-server workflows', count: 0 });
    expect(await count(ep.url, '?binding=named&namespace=elsewhere')).toEqual({
      name: 'argo-server workflows',
      count: 0,
    });
  });
});

describe('--run: submitted workflows go to the local agent', () => {
  it('runs the plugin steps of the referenced WorkflowTemplate with the binding parameters', async () => {
    const texts: string[] = [];
    const plugin = new StandInServer('echo-plugin').route('POST', '/api/v1/template.execute', (req) => {
      const body = req.body as { template: { plugin: { echo?: { text: string } } } };
      if (!body.template.plugin.echo) return { body: {} };
      texts.push(body.template.plugin.echo.text);
      return { body: { node: { phase: 'Succeeded', message: `echoed ${body.template.plugin.echo.text}` } } };
    });
    const url = await plugin.start();
    writeFileSync(join(dir, 'binding.yaml'), BINDING_YAML);
    writeFileSync(join(dir, 'template.yaml'), TEMPLATE_YAML);
    const finished: string[] = [];
    const ep = await startEventEndpoint({
      bindingsDir: dir,
      tokens: TOKENS,
      log: () => undefined,
      run: {
        plugins: () => [{ name: 'echo', url, token: 'agent-token' }],
        timeScale: 0.01,
        onResult: (r) => finished.push(r.phase),
      },
    });
    try {
      await send(ep.url, EVENT, { body: { message: 'hello from an event' } });
      await ep.idle();
      expect(texts).toEqual(['hello from an event']);
      expect(finished).toEqual(['Succeeded']);
      const [run] = ep.runs();
      expect(run!.result!.phase).toBe('Succeeded');
      expect(run!.tree).toContain('echoed hello from an event');
      expect(plugin.calls[0]!.headers.authorization).toBe('Bearer agent-token');
    } finally {
      await ep.close();
      await plugin.close();
    }
  });
});
