import type { RunState } from '@app/plugin-kit';

/** Normalised state of a build, whatever the upstream calls it. */
export type BuildStatus = RunState;

/** One build as the plugin sees it, normalised across providers. */
export interface BuildRun {
  /** The provider's key (`jenkins`). */
  provider: string;
  /** Build number (Jenkins), run id (GitHub), pipeline id (GitLab); '' while not known yet. */
  id: string;
  /** Web page of the run (or of the job while a Jenkins build is still queued); '' when not known. */
  url: string;
  status: BuildStatus;
  /** The upstream's own word: UNSTABLE, in_progress, success, failed, ... ('' before there is one). */
  result: string;
  /** What the run is, for messages: `folder/app #42`, `acme/web ci.yml run 123`, `acme/deploy pipeline 61`. */
  label: string;
  /** Epoch ms. */
  startedAt?: number;
  finishedAt?: number;
  /** Upstream duration when it reports one. */
  durationMs?: number;
  /** Why a queued or blocked run is not moving (Jenkins queue `why`, GitLab manual, GitHub approval). */
  waitingReason?: string;
}
