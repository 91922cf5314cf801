import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  executeArgs,
  loadManifestFile,
  runWorkflow,
  startPluginProcess,
  type DemoContext,
  type DemoUpstreams,
  type PluginProcess,
} from '@app/local-agent';
import { startDemoUpstreams } from '../demo/upstreams.js';

const root = join(import.meta.dirname, '../../..');
const TOKEN = 'bcdfghjklmnpqrstvwxz2456789bcdfg';
const apps = {
  slack: 'chat-notifier',
  build: 'build-trigger',
  'data-job': 'data-job-runner',
  'workflow-event': 'event-emitter',
};
const conformance = (app: string) =>
  JSON.parse(readFileSync(join(root, 'apps', app, 'test/conformance.json'), 'utf8')) as {
    config: Record<string, unknown>;
  };

/** The built collection bundle as the pod runs it, pointed at the stand-ins of every hosted plugin. */
describe('the collection sidecar as a process', () => {
  let up: DemoUpstreams;
  let proc: PluginProcess;
  const dir = mkdtempSync(join(tmpdir(), 'collection-e2e-'));
  beforeAll(async () => {
    const context: DemoContext = { plugins: [], timeScale: 0.05 };
    up = await startDemoUpstreams(context);
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, TOKEN);
    proc = await startPluginProcess('collection', join(root, 'dist/apps/collection/main.js'), {
      ...up.env,
      TOKEN_FILE: tokenFile,
    });
    context.plugins.push({ name: 'collection', url: proc.url, token: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await up?.settle?.();
    await proc?.stop();
    await up?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (body: unknown) => {
    const res = await fetch(`${proc.url}/api/v1/template.execute`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { node?: { phase: string; message?: string } };
  };
  const loaded = () => proc.logs.filter((l) => l.msg === 'plugin module loaded').map((l) => l.plugin);

  it('starts with only the contract front: no plugin module is loaded', async () => {
    expect(proc.logs.find((l) => l.msg === 'listening')).toMatchObject({
      plugin: 'collection',
      plugins: expect.arrayContaining(['notify', 'build', 'data-job', 'workflow-event']),
    });
    expect(await post(executeArgs({ 'not-ours': {} }))).toEqual({});
    expect(loaded()).toEqual([]);
  });

  it("loads each plugin's module on its own first call, and only that one", async () => {
    const expected: string[] = [];
    for (const [key, app] of Object.entries(apps)) {
      const reply = await post(
        executeArgs({ [key]: conformance(app).config }, { templateName: `first-${key}` }),
      );
      expect(['Running', 'Succeeded']).toContain(reply.node?.phase);
      expected.push(app);
      expect(loaded()).toEqual(expected);
    }
  }, 30_000);

  it("serves approve (the notifier's approval gates): the gate example is approved by the stand-in's scripted approver", async () => {
    const example = join(root, 'manifests/chat-notifier/examples/slack-approval-gate.yaml');
    const result = await runWorkflow(loadManifestFile(example).workflows[0]!, {
      plugins: [{ name: 'collection', url: proc.url, token: TOKEN }],
      timeScale: 0.05,
    });
    expect(result.phase).toBe('Succeeded');
    const decision = result.node('approve-prod')?.outputs?.parameters?.find((p) => p.name === 'decision');
    expect(decision?.value).toBe('approved');
  }, 60_000);
});

describe('the collection sidecar with a PLUGINS that names no plugin', () => {
  it.each([',', ' , ,'])('PLUGINS=%j: exits 1 with one line naming the variable', (value) => {
    const run = spawnSync(process.execPath, [join(root, 'dist/apps/collection/main.js')], {
      env: { PATH: process.env.PATH, PLUGINS: value },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'error',
      plugin: 'collection',
    });
    const msg = JSON.parse(lines[0]).msg as string;
    expect(msg).toMatch(
      /^invalid configuration: PLUGINS: ".*" names no plugin \(this collection has .*; unset serves them all\)$/,
    );
    expect(msg).toContain(`PLUGINS: ${JSON.stringify(value)} names`);
    for (const key of Object.keys(apps)) expect(msg).toContain(key);
  });
});
