import { SEVERITIES, type RuleResult } from '../rule.js';
import { evidenceLine } from './evidence-line.js';
import { summaryLine, type ConformanceReport } from './report.js';

const LABEL: Record<RuleResult['status'], string> = { pass: 'pass', fail: 'FAIL', skip: 'skip' };

/** The human report: one table row per rule, the evidence of each failure below its row. */
export function renderText(
  report: ConformanceReport,
  options: { verbose?: boolean; exitCode: number },
): string {
  const t = report.target;
  const lines = [
    `${report.tool} ${report.version} · plugin "${t.key}" at ${t.url}`,
    `config: ${t.config ? 'yes' : 'no'} · count-url: ${t.countUrl ? 'yes' : 'no'} · start: ${t.start ?? 'no'}${t.timeScale !== 1 ? ` · time scale ${t.timeScale}` : ''}`,
    '',
  ];
  const idWidth = Math.max(4, ...report.results.map((r) => r.id.length));
  const sevWidth = Math.max(...SEVERITIES.map((s) => s.length));
  lines.push(`RESULT  ${'SEVERITY'.padEnd(sevWidth)}  ${'RULE'.padEnd(idWidth)}  VERDICT`);
  for (const r of report.results) {
    lines.push(
      `${LABEL[r.status].padEnd(6)}  ${r.severity.padEnd(sevWidth)}  ${r.id.padEnd(idWidth)}  ${r.verdict}`,
    );
    if (r.status === 'fail' || options.verbose) {
      const indent = ' '.repeat(8);
      if (r.status === 'fail') lines.push(`${indent}why: ${r.why}`);
      for (const e of r.evidence) lines.push(`${indent}· ${evidenceLine(e)}`);
    }
  }
  lines.push('');
  for (const note of report.notes) lines.push(`note: ${note}`);
  if (report.stopped) lines.push(`stopped: ${report.stopped}; the rules after it were not run`);
  lines.push(summaryLine(report));
  const why =
    report.score.failedBySeverity['breaks-workflow'] > 0
      ? 'a rule that breaks workflows in Argo failed'
      : report.stopped
        ? 'the run stopped before its end'
        : 'a finding with --strict';
  const seconds = `${(report.durationMs / 1000).toFixed(1)} s`;
  lines.push(
    options.exitCode === 0 ? `exit 0 (${seconds})` : `exit ${options.exitCode}: ${why} (${seconds})`,
  );
  return `${lines.join('\n')}\n`;
}
