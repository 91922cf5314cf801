import type { ConformanceReport } from './report.js';

export function renderJson(report: ConformanceReport, exitCode: number): string {
  return `${JSON.stringify({ ...report, exitCode }, null, 2)}\n`;
}
