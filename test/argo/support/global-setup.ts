// Bundles the suite's own test images (test/argo/support/<name>/main.ts → dist/test/<name>/main.js, see
// test-images.ts), then starts one real Argo stack for the whole run (or uses the one ARGO_STACK_DIR names,
// when it is up already), and the file each suite appends its workflow lines to for the summary.
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
      target: 'node20',
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
  if (!process.env.ARGO_STACK_DIR) {
    process.env.ARGO_STACK_DIR = join(run, 'stack');
    process.env.ARGO_SUITE_OWNS_STACK = '1';
  }
  execFileSync('node', ['tools/run-cli.mjs', 'argo', 'up', '--dir', process.env.ARGO_STACK_DIR], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
