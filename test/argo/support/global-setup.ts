// Starts one real Argo stack for the whole run (or uses the one ARGO_STACK_DIR names, when it is up already),
// and the file each suite appends its workflow lines to for the summary.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export default async function globalSetup(): Promise<void> {
  const root = resolve(import.meta.dirname, '../../..');
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
