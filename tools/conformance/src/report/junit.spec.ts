import type { RuleResult } from '../rule.js';
import { renderJunit, xmlEscape } from './junit.js';
import { exitCodeFor, scoreOf, type ConformanceReport } from './report.js';

const result = (id: string, status: RuleResult['status'], severity: RuleResult['severity']): RuleResult => ({
  id,
  name: `${id} name`,
  severity,
  status,
  why: 'because <Argo> & "Go"',
  verdict: `${id} verdict`,
  ms: 1500,
  evidence: [{ what: 'call', status: 400, body: 'bad \u0000 <body>', ms: 3, note: 'node Failed' }],
});

function report(results: RuleResult[]): ConformanceReport {
  return {
    tool: 'argo-plugin-conformance',
    version: '0.1.0',
    target: { url: 'http://127.0.0.1:1/', key: 'k', config: false, timeScale: 1 },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 2000,
    results,
    score: scoreOf(results),
    notes: [],
  };
}

describe('JUnit output', () => {
  it('escapes markup and drops characters XML 1.0 cannot carry', () => {
    expect(xmlEscape('a<b>&"c"\u0000\u0007d\n')).toBe('a&lt;b&gt;&amp;&quot;c&quot;\uFFFD\uFFFDd\n');
  });

  it('one testcase per rule; failures carry the verdict, the engine behaviour and the evidence', () => {
    const xml = renderJunit(
      report([
        result('a', 'pass', 'hygiene'),
        result('b', 'fail', 'breaks-workflow'),
        result('c', 'skip', 'hygiene'),
      ]),
    );
    expect(xml).toContain(
      '<testsuites name="argo-plugin-conformance" tests="3" failures="1" errors="0" skipped="1" time="2.000">',
    );
    expect(xml).toContain('<testcase classname="conformance.hygiene" name="a: a name" time="1.500"/>');
    expect(xml).toContain(
      '<failure type="breaks-workflow" message="b verdict">why: because &lt;Argo&gt; &amp; &quot;Go&quot;\ncall → 400, 3 ms: bad \uFFFD &lt;body&gt; — node Failed</failure>',
    );
    expect(xml).toContain('<skipped message="c verdict"/>');
    expect(xml).toContain('<property name="failed.breaks-workflow" value="1"/>');
  });
});

describe('score and exit code', () => {
  it('counts judged rules only, and fails on breaks-* (on hygiene too when strict)', () => {
    const hygiene = report([
      result('a', 'pass', 'hygiene'),
      result('b', 'fail', 'hygiene'),
      result('c', 'skip', 'breaks-workflow'),
    ]);
    expect(hygiene.score).toMatchObject({ passed: 1, failed: 1, skipped: 1, judged: 2, percent: 50 });
    expect(exitCodeFor(hygiene)).toBe(0);
    expect(exitCodeFor(hygiene, true)).toBe(1);
    expect(exitCodeFor(report([result('d', 'fail', 'breaks-workflow')]))).toBe(1);
    expect(exitCodeFor(report([result('e', 'fail', 'security')]))).toBe(0);
    expect(exitCodeFor(report([result('e', 'fail', 'security')]), true)).toBe(1);
  });
});
