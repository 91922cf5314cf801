// The local agent ends each workflow shape as the real controller did (no stack needed: npm test).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeId, runWorkflowSpec } from '@app/local-agent';
import { SCRIPTED_KEY, startScriptedPlugin, type RunningScriptedPlugin } from './scripted-plugin/server.js';
import { WORKFLOW_SHAPES } from './workflow-shapes.js';

describe('workflow shapes: the local agent ends each as the real controller did', () => {
  let dir: string;
  let plugin: RunningScriptedPlugin;
  const token = 'shapes-token';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'workflow-shapes-'));
    writeFileSync(join(dir, 'token'), token);
    plugin = await startScriptedPlugin({
      host: '127.0.0.1',
      port: 0,
      tokenFile: join(dir, 'token'),
      onRequest: () => undefined,
    });
  });
  afterAll(async () => {
    await plugin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(WORKFLOW_SHAPES)('$label', async ({ workflow, phase, message }) => {
    const result = await runWorkflowSpec(workflow, {
      plugins: [{ name: SCRIPTED_KEY, url: `http://127.0.0.1:${plugin.port}`, token }],
      rpc: { backoffMs: 1 },
    });
    const expected = message?.replace(/\{node:([^}]*)\}/g, (_m, suffix: string) =>
      nodeId(result.name, `${result.name}${suffix}`),
    );
    expect({ phase: result.phase, message: result.message }).toEqual({ phase, message: expected });
  });
});
