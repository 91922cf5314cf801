import { join } from 'node:path';

/**
 * Where a run writes its results: bench/.work/results.json (untracked) unless asked. `--write` updates the
 * tracked bench/results.json, the figures docs/performance.md quotes; `--out` names any file.
 */
export function resultsFile(options: { write: boolean; out?: string }, root: string, work: string): string {
  if (options.write) return join(root, 'bench/results.json');
  return options.out ?? join(work, 'results.json');
}
