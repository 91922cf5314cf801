// One line per workflow as it ends (verdict, file, pass, phase, seconds), kept in a file the global teardown
// sums up in one line (global-teardown.ts). Written to stdout directly: jest would frame each console.log with its source.
import { appendFileSync } from 'node:fs';

export interface WorkflowLine {
  /** The example file, or what submitted the workflow. */
  what: string;
  /** Which way the plugins were installed: single, collection, workflow-level, ... */
  pass: string;
  phase: string;
  expected: string;
  seconds: number;
  message?: string;
}

export function reportWorkflow(line: WorkflowLine): void {
  const ok = line.phase === line.expected;
  const detail = ok ? '' : `  (expected ${line.expected}${line.message ? `: ${line.message}` : ''})`;
  process.stdout.write(
    `${ok ? '✓' : '✗'} ${line.what} [${line.pass}] ${line.phase} ${line.seconds.toFixed(1)} s${detail}\n`,
  );
  const file = process.env.ARGO_SUITE_RESULTS;
  if (file) appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** Lines of a suite's own report, unframed (a green run prints its summary and what differs, not every row). */
export function reportText(lines: string[]): void {
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
}
