import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli, type CliIo } from '../cli.js';

const PLUGIN = resolve(import.meta.dirname, '../../../../manifests/build-trigger/plugin.yaml');

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: {},
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

describe('conformance --agent real: the command line', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'conformance-real-cli-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without a running stack says so in one line, exit 2', async () => {
    expect(await cli(['--agent', 'real', '--plugin', PLUGIN, '--stack-dir', dir])).toEqual({
      code: 2,
      stdout: '',
      stderr: `argo-plugin-conformance: --agent real: no Argo stack is up in ${dir} (start one with npm run argo -- up, or give --stack-dir)\n`,
    });
  });

  it('refuses the options of the other agent, and wants --plugin', async () => {
    const usage = ' (usage: argo-plugin-conformance --help)\n';
    expect((await cli(['--agent', 'real', '--plugin', PLUGIN, '--url', 'http://x'])).stderr).toBe(
      `argo-plugin-conformance: --url is for the local agent${usage}`,
    );
    expect((await cli(['--agent', 'real'])).stderr).toBe(
      `argo-plugin-conformance: --plugin is required with --agent real${usage}`,
    );
    const local = await cli(['--url', 'http://x', '--token-file', PLUGIN, '--key', 'k', '--namespace', 'n']);
    expect(local).toMatchObject({
      code: 2,
      stderr: `argo-plugin-conformance: --namespace is for --agent real${usage}`,
    });
  });

  it('a --plugin that is neither an ExecutorPlugin nor its ConfigMap, exit 2 before any stack is looked for', async () => {
    const file = join(dir, 'other.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n');
    const result = await cli(['--agent', 'real', '--plugin', file, '--stack-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^argo-plugin-conformance: --plugin .*other\.yaml: expected an ExecutorPlugin \(plugin\.yaml\) or its ConfigMap/,
    );
  });
});
