// expr v1.17.8 as Argo's server runs it vs libs/expr + evaluateBinding, over every case set of this folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from '@jest/globals';

import { compareCases, loadCaseSets } from './fidelity-harness.js';
import type { CaseId, Difference } from './fidelity-harness.js';

const folder = dirname(fileURLToPath(import.meta.url));

/** Differences not fixed yet, by case id and group: this list may only shrink. */
const KNOWN = new Map<string, string>(
  Object.entries(
    JSON.parse(readFileSync(join(folder, 'known-differences.json'), 'utf8')) as Record<string, string>,
  ),
);

function describeDifference(d: Difference): string {
  return `  ${d.id} [${d.area}] ${JSON.stringify(d.expr)}: ${d.field} ours=${JSON.stringify(d.ours)} go=${JSON.stringify(d.go)}`;
}

describe('expr fidelity against the real engine', () => {
  it('gives what expr v1.17.8 gives in Argo for every reference case (no semantic difference)', () => {
    let cases = 0;
    let compared = 0;
    let differing = 0;
    const differences: Difference[] = [];
    const loaded = new Set<string>();
    for (const set of loadCaseSets(folder)) {
      for (const c of set.cases) loaded.add(String(c.id));
      const result = compareCases(set.cases, set.results);
      cases += result.cases;
      compared += result.errorTexts.compared;
      differing += result.errorTexts.differing;
      differences.push(...result.differences);
    }
    if (process.env.FIDELITY_DUMP)
      writeFileSync(process.env.FIDELITY_DUMP, JSON.stringify(differences, null, 1));
    const found = new Set<CaseId>(differences.map((d) => String(d.id)));
    const unexpected = differences.filter((d) => !KNOWN.has(String(d.id)));
    // ids of a case set that is not in the folder are neither checked nor reported
    const fixed = [...KNOWN.keys()].filter((id) => loaded.has(id) && !found.has(id));
    if (process.env.FIDELITY_WRITE_KNOWN) {
      // Maintenance, when a case set is added: record its differences (existing groups are kept).
      const groups = Object.fromEntries(differences.map((d) => [d.id, KNOWN.get(String(d.id)) ?? d.area]));
      writeFileSync(join(folder, 'known-differences.json'), `${JSON.stringify(groups, null, 1)}\n`);
      return;
    }
    const rate = compared === 0 ? 0 : (100 * differing) / compared;
    console.log(
      `expr fidelity: ${cases} cases, ${differences.length} known semantic differences; ` +
        `error texts differ in ${differing} of ${compared} failing cases (${rate.toFixed(1)} %)`,
    );
    const report = [
      ...unexpected.slice(0, 40).map(describeDifference),
      ...(fixed.length > 0 ? [`  fixed, remove from known-differences.json: ${fixed.join(', ')}`] : []),
    ];
    expect(report.join('\n')).toBe('');
  });
});
