import type { RuleResult } from '../rule.js';
import { evidenceLine } from './evidence-line.js';
import { summaryLine, type ConformanceReport } from './report.js';

// XML 1.0 allows tab, LF, CR and everything from U+0020 except the surrogates and U+FFFE/U+FFFF.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function testcase(r: RuleResult): string {
  const open = `    <testcase classname="conformance.${r.severity}" name="${xmlEscape(`${r.id}: ${r.name}`)}" time="${seconds(r.ms)}"`;
  const detail = [`why: ${r.why}`, ...r.evidence.map(evidenceLine)].join('\n');
  switch (r.status) {
    case 'pass':
      return `${open}/>`;
    case 'skip':
      return `${open}>\n      <skipped message="${xmlEscape(r.verdict)}"/>\n    </testcase>`;
    case 'fail':
      return (
        `${open}>\n      <failure type="${r.severity}" message="${xmlEscape(r.verdict)}">${xmlEscape(detail)}</failure>\n` +
        `    </testcase>`
      );
  }
}

/** JUnit XML for CI: one testcase per rule, failures carrying the verdict and the evidence. */
export function renderJunit(report: ConformanceReport): string {
  const s = report.score;
  const name = xmlEscape(`${report.tool}: ${report.target.key} at ${report.target.url}`);
  const counts = `tests="${report.results.length}" failures="${s.failed}" errors="0" skipped="${s.skipped}" time="${seconds(report.durationMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${report.tool}" ${counts}>`,
    `  <testsuite name="${name}" ${counts} timestamp="${report.startedAt}">`,
    '    <properties>',
    ...Object.entries(s.failedBySeverity).map(
      ([severity, n]) => `      <property name="failed.${severity}" value="${n}"/>`,
    ),
    `      <property name="score" value="${xmlEscape(summaryLine(report))}"/>`,
    ...(report.stopped ? [`      <property name="stopped" value="${xmlEscape(report.stopped)}"/>`] : []),
    '    </properties>',
    ...report.results.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
