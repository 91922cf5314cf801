// The conformance kit's --agent real mode against the stack: the kit's mini plugin (tools/conformance/test/
// fixtures) as the suite's test image (test/argo/support/mini-plugin), run as a sidecar from its plugin.yaml,
// once correct and once with two bugs the mode must catch. Its usage errors and the line it answers without a stack: tools/conformance/src/real-agent.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import type { StandInServer } from '@app/local-agent/stand-in/index.js';
import type { MiniBug } from '../../tools/conformance/test/fixtures/mini-plugin.js';
import { startEffectsUpstream } from '../../tools/conformance/test/support/fixtures.js';
import { reportText } from './support/report.js';
import { testImage } from './support/test-images.js';
import { repoRoot, stack } from './support/cluster.js';
import { standInsOnStack } from './support/upstreams.js';

const PORT = 4361;

interface Cli {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run conformance -- <args>` as a process (the stand-in it calls runs in this one). */
function conformance(args: string[]): Promise<Cli> {
  return new Promise((resolve) => {
    execFile(
      'node',
      ['tools/run-cli.mjs', 'conformance', ...args],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('conformance --agent real', () => {
  const state = stack();
  let dir: string;
  let upstream: StandInServer;

  /** The mini plugin's plugin.yaml, in our manifests' securityContext (UID 65532, group 0: see reply-scenarios). */
  function pluginYaml(name: string, bugs: MiniBug[]): string {
    const file = join(dir, `${name}.yaml`);
    const plugin = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ExecutorPlugin',
      metadata: { name },
      spec: {
        sidecar: {
          container: {
            name: `${name}-executor-plugin`,
            image: testImage('mini-plugin'),
            ports: [{ containerPort: PORT }],
            env: [
              { name: 'PORT', value: String(PORT) },
              { name: 'MINI_UPSTREAM_URL', value: upstream.url },
              { name: 'MINI_BUGS', value: bugs.join(',') },
            ],
            resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { cpu: '500m', memory: '64Mi' } },
            securityContext: { runAsNonRoot: true, runAsUser: 65532, allowPrivilegeEscalation: false },
          },
        },
      },
    };
    writeFileSync(file, stringify(plugin));
    return file;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-real-'));
    standInsOnStack(state);
    ({ upstream } = await startEffectsUpstream());
    writeFileSync(join(dir, 'config.yaml'), stringify({ message: 'hello', jobMs: 1500 }));
  });
  afterAll(async () => {
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('judges a correct plugin and a broken one by how their workflows end under the real agent', async () => {
    const run = (name: string, bugs: MiniBug[]) =>
      conformance([
        '--agent',
        'real',
        '--plugin',
        pluginYaml(name, bugs),
        '--key',
        'mini',
        '--config',
        join(dir, 'config.yaml'),
        '--stack-dir',
        state.dir,
        '--namespace',
        `conformance-${name}`,
        '--output',
        'json',
      ]);
    const [correct, broken, disabled] = await Promise.all([
      run('mini', []),
      run('mini-broken', ['foreign-400', 'bad-config-400']),
      run('mini-404', ['foreign-404']),
    ]);
    const statuses = (cli: Cli) =>
      Object.fromEntries(
        (JSON.parse(cli.stdout) as { results: Array<{ id: string; status: string }> }).results.map((r) => [
          r.id,
          r.status,
        ]),
      );
    reportText([
      `conformance-real-agent: correct plugin: exit ${correct.code} ${JSON.stringify(statuses(correct))}\n` +
        `broken plugin: exit ${broken.code} ${JSON.stringify(statuses(broken))}\n` +
        `404 for another plugin's template: exit ${disabled.code} ${JSON.stringify(statuses(disabled))}`,
    ]);
    expect({ code: correct.code, results: statuses(correct) }).toEqual({
      code: 0,
      results: {
        'foreign-template': 'pass',
        'bad-config-status': 'pass',
        'bad-config-failed': 'pass',
        'example-succeeds': 'pass',
      },
    });
    expect({ code: broken.code, results: statuses(broken) }).toEqual({
      code: 1,
      results: {
        'foreign-template': 'fail',
        'bad-config-status': 'fail',
        'bad-config-failed': 'pass',
        'example-succeeds': 'pass',
      },
    });
    // The agent takes a 404 as "not this plugin" for the rest of the workflow: its own template then fails too.
    const foreign = (
      JSON.parse(disabled.stdout) as { results: Array<{ id: string; status: string; verdict: string }> }
    ).results.find((r) => r.id === 'foreign-template');
    expect({ code: disabled.code, foreign }).toMatchObject({
      code: 1,
      foreign: { status: 'fail', verdict: expect.stringContaining('a 404 disabled the plugin') },
    });
  });
});
