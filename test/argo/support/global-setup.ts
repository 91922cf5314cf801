// Bundles the suite's own test images (test/argo/support/<name>/main.ts → dist/test/<name>/main.js, see
// test-images.ts), then starts the run's two real Argo stacks side by side (or uses those ARGO_STACK_DIR and
// ARGO_SHARED_STACK_DIR name, when they are up already): one with Argo's agent pod per workflow, one with
// disableAgentPodCreation and the shared agent. A variable set to `none` leaves its stack out (for a run of
// suites that need only the other one). Also the file each suite appends its workflow lines to for the summary.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

async function buildTestImages(root: string): Promise<void> {
  const support = join(root, 'test/argo/support');
  for (const name of readdirSync(support).filter((d) => existsSync(join(support, d, 'main.ts')))) {
    const outdir = join(root, 'dist/test', name);
    mkdirSync(outdir, { recursive: true });
    await build({
      absWorkingDir: root,
      entryPoints: [join(support, name, 'main.ts')],
      outfile: join(outdir, 'main.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      logLevel: 'warning',
    });
    writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
  }
}

export default async function globalSetup(): Promise<void> {
  const root = resolve(import.meta.dirname, '../../..');
  await buildTestImages(root);
  process.env.ARGO_SUITE_STARTED = String(Date.now());
  const run = mkdtempSync(join(tmpdir(), 'argo-suite-'));
  process.env.ARGO_SUITE_RESULTS = join(run, 'workflows.jsonl');
  // ARGO_NODE=real: the first stack runs a real node (one per machine: kube-proxy's rules are the machine's).
  const node = process.env.ARGO_NODE === 'real' ? ['--node', 'real'] : [];
  const stacks = [
    { variable: 'ARGO_STACK_DIR', owner: 'ARGO_SUITE_OWNS_STACK', dir: 'stack', args: node },
    {
      variable: 'ARGO_SHARED_STACK_DIR',
      owner: 'ARGO_SUITE_OWNS_SHARED_STACK',
      dir: 'shared-stack',
      args: ['--agent', 'shared'],
    },
  ];
  for (const { variable, owner, dir, args } of stacks) {
    if (process.env[variable] === 'none') continue;
    if (!process.env[variable]) {
      process.env[variable] = join(run, dir);
      process.env[owner] = '1';
    }
    execFileSync('node', ['tools/run-cli.mjs', 'argo', 'up', '--dir', process.env[variable]!, ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}
