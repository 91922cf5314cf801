import { SEVERITIES, type RuleResult, type Severity } from '../rule.js';

export interface Score {
  passed: number;
  failed: number;
  skipped: number;
  /** Rules that ran (passed + failed). */
  judged: number;
  /** passed / judged, in percent (100 when nothing was judged). */
  percent: number;
  failedBySeverity: Record<Severity, number>;
}

export interface ConformanceReport {
  tool: string;
  version: string;
  target: {
    url: string;
    key: string;
    config: boolean;
    countUrl?: string;
    start?: string;
    timeScale: number;
  };
  startedAt: string;
  durationMs: number;
  results: RuleResult[];
  score: Score;
  notes: string[];
  /** Why the run stopped before its end (the plugin kept the agent waiting, or the deadline passed). */
  stopped?: string;
}

export function scoreOf(results: RuleResult[]): Score {
  const passed = results.filter((r) => r.status === 'pass').length;
  const failed = results.filter((r) => r.status === 'fail');
  const judged = passed + failed.length;
  const failedBySeverity = Object.fromEntries(
    SEVERITIES.map((s) => [s, failed.filter((r) => r.severity === s).length]),
  ) as Record<Severity, number>;
  return {
    passed,
    failed: failed.length,
    skipped: results.length - judged,
    judged,
    percent: judged === 0 ? 100 : Math.round((passed / judged) * 100),
    failedBySeverity,
  };
}

/**
 * 1 when a breaks-workflow rule failed (or, with `strict`, any rule), or the run stopped before its end (a
 * plugin that keeps the agent waiting breaks workflows whatever rule was running); else 0.
 */
export function exitCodeFor(report: ConformanceReport, strict = false): number {
  const f = report.score.failedBySeverity;
  if (f['breaks-workflow'] > 0 || report.stopped !== undefined) return 1;
  return strict && (f.security > 0 || f.hygiene > 0) ? 1 : 0;
}

export function summaryLine(report: ConformanceReport): string {
  const s = report.score;
  const by = SEVERITIES.map((sev) => `${sev}: ${s.failedBySeverity[sev]}`).join(' · ');
  return `Score ${s.passed}/${s.judged} rules passed (${s.percent} %), ${s.skipped} skipped · failed ${by}`;
}
