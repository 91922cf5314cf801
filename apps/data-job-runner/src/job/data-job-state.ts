import type { ExecuteTemplateReply } from '@app/contract';
import type { ProviderName } from '../providers/provider-names.js';
import type { JobRun, JobState, RunRef } from './job-run.js';

/** What the plugin keeps per execution key (ctx.state): enough to poll the run and to report it. */
export interface DataJobState {
  provider: ProviderName;
  ref: RunRef;
  url?: string;
  /** Epoch ms: the upstream's start time if it gave one, else when this execution started or adopted the run. */
  startedAt: number;
  lastState: JobState;
  lastUpstreamState: string;
  extras?: Record<string, string>;
  /** When the plugin asked the upstream to cancel (timeout). */
  cancelRequestedAt?: number;
  /** The terminal reply, replayed to later calls without asking the upstream again. */
  final?: ExecuteTemplateReply;
}

/** The last known view of the run, for replies that do not poll (timeout). */
export function lastKnownRun(state: DataJobState): JobRun {
  return {
    ref: state.ref,
    url: state.url,
    state: state.lastState,
    upstreamState: state.lastUpstreamState,
    extras: state.extras,
  };
}

/** State after a reply from the upstream: the run's latest view, the earliest start time known. */
export function withRun(state: DataJobState, run: JobRun): DataJobState {
  return {
    ...state,
    url: run.url ?? state.url,
    startedAt: run.startedAt !== undefined ? Math.min(state.startedAt, run.startedAt) : state.startedAt,
    lastState: run.state,
    lastUpstreamState: run.upstreamState,
    extras: run.extras ?? state.extras,
  };
}
