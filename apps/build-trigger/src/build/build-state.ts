import type { BuildRun, ProviderName } from './build-run.js';

/** What the kit keeps for one execution between calls (JSON). */
export interface BuildState {
  provider: ProviderName;
  /** Epoch ms the build was started (or, when found again after a restart, when the upstream says it started). */
  startedAt: number;
  /** The provider's own handle: queue id / build number, run id, pipeline id. */
  ref: unknown;
  /** The last observed state. */
  run: BuildRun;
  /** Set once a final reply was given: later calls repeat it without asking the upstream. */
  final?: { phase: 'Succeeded' | 'Failed'; message: string };
}
