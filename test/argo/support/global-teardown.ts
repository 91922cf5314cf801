// Prints the run's summary line, then stops the stacks the setup started (unless ARGO_KEEP_STACK=1).
// Jest loads this file without the suites' module mapping: it imports nothing of theirs but types.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { WorkflowLine } from './report.js';

/** `test:argo: 74 workflows, 74 as expected, 0 not, in 9 min 12 s` (naming the ones that were not). */
function summaryLine(file: string, startedAt: number): string {
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as WorkflowLine)
    : [];
  const bad = lines.filter((l) => l.phase !== l.expected);
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  const which = bad.length ? `: ${bad.map((l) => `${l.what} [${l.pass}] ${l.phase}`).join(', ')}` : '';
  return `test:argo: ${lines.length} workflows, ${lines.length - bad.length} as expected, ${bad.length} not, in ${Math.floor(seconds / 60)} min ${seconds % 60} s${which}`;
}

export default async function globalTeardown(): Promise<void> {
  const results = process.env.ARGO_SUITE_RESULTS!;
  process.stdout.write(`\n${summaryLine(results, Number(process.env.ARGO_SUITE_STARTED))}\n`);
  const owned = [
    ['ARGO_STACK_DIR', 'ARGO_SUITE_OWNS_STACK'],
    ['ARGO_SHARED_STACK_DIR', 'ARGO_SUITE_OWNS_SHARED_STACK'],
  ].filter(([, owner]) => process.env[owner!] === '1');
  if (owned.length > 0 && process.env.ARGO_KEEP_STACK === '1') {
    rmSync(results, { force: true });
    return;
  }
  for (const [variable] of owned)
    execFileSync('node', ['tools/run-cli.mjs', 'argo', 'down', '--dir', process.env[variable!]!], {
      cwd: resolve(import.meta.dirname, '../../..'),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  rmSync(dirname(results), { recursive: true, force: true });
}
