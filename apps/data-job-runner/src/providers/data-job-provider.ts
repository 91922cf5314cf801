import type { PluginLogger, WorkflowMeta } from '@app/plugin-kit';
import type { JobRun, RunExtras, RunRef } from '../job/job-run.js';

export interface StartRequest<B> {
  block: B;
  /** The kit's execution key (sha256 hex): the source of the upstream's idempotency key or run name. */
  key: string;
  workflow: WorkflowMeta;
  signal: AbortSignal;
  logger: PluginLogger;
}

export interface PollRequest<B> {
  ref: RunRef;
  block: B;
  signal: AbortSignal;
  /** We asked the upstream to cancel this run (Livy: a 404 then means "deleted by us"). */
  cancelRequested: boolean;
  /** Output parameters the template declares: extras that cost a request are fetched only when asked for. */
  declaredOutputs: ReadonlySet<string>;
}

/**
 * One upstream. `start` must be idempotent through the upstream's own key: called again for the same execution
 * key (a restarted sidecar has no memory), it returns the run the first call started. `poll` makes exactly one
 * request. `finish` runs once, when a run has reached a terminal state, for cheap extras (at most one request).
 * Every upstream failure is an UpstreamError (transient or permanent) with a message free of credentials.
 */
export interface DataJobProvider<B> {
  start(request: StartRequest<B>): Promise<JobRun>;
  poll(request: PollRequest<B>): Promise<JobRun>;
  cancel(ref: RunRef, signal: AbortSignal): Promise<void>;
  finish?(run: JobRun, request: PollRequest<B>): Promise<RunExtras>;
}
