import type { JobState, MappedState } from '../../job/job-run.js';

/** `state` of runs/get (deprecated in favour of `status`, but still returned). */
export interface DatabricksRunState {
  life_cycle_state?: string;
  result_state?: string;
  state_message?: string;
  user_cancelled_or_timedout?: boolean;
  queue_reason?: string;
}

/** `status` of runs/get (API 2.2). */
export interface DatabricksRunStatus {
  state?: string;
  termination_details?: { code?: string; type?: string; message?: string };
  queue_details?: { code?: string; message?: string };
}

const LIFE_CYCLE = new Map<string, JobState>([
  ['QUEUED', 'queued'],
  ['PENDING', 'queued'],
  ['BLOCKED', 'queued'],
  ['RUNNING', 'running'],
  ['TERMINATING', 'running'],
  ['WAITING_FOR_RETRY', 'running'],
  ['SKIPPED', 'failed'],
  ['INTERNAL_ERROR', 'failed'],
]);

const RESULT = new Map<string, JobState>([
  ['SUCCESS', 'succeeded'],
  ['CANCELED', 'cancelled'],
  ['FAILED', 'failed'],
  ['TIMEDOUT', 'failed'],
  ['MAXIMUM_CONCURRENT_RUNS_REACHED', 'failed'],
  ['EXCLUDED', 'failed'],
  ['UPSTREAM_FAILED', 'failed'],
  ['UPSTREAM_CANCELED', 'failed'],
  ['DISABLED', 'failed'],
]);

/** `status.state` values (API 2.2), used when a reply has no `state`. */
const STATUS = new Map<string, JobState>([
  ['QUEUED', 'queued'],
  ['PENDING', 'queued'],
  ['BLOCKED', 'queued'],
  ['RUNNING', 'running'],
  ['TERMINATING', 'running'],
  ['WAITING', 'running'],
]);

const TERMINATION = new Map<string, JobState>([
  ['SUCCESS', 'succeeded'],
  ['USER_CANCELED', 'cancelled'],
  ['CANCELED', 'cancelled'],
]);

/**
 * Databricks run state → normalised state. TERMINATED + SUCCESS_WITH_FAILURES (all leaf tasks succeeded)
 * is succeeded unless the body asks otherwise; SKIPPED and INTERNAL_ERROR are failures; an unknown value
 * keeps the run polling (the timeout still applies).
 */
export function mapDatabricksState(
  state: DatabricksRunState | undefined,
  status: DatabricksRunStatus | undefined,
  successWithFailures: 'succeeded' | 'failed' = 'succeeded',
): MappedState {
  const lifeCycle = state?.life_cycle_state;
  if (lifeCycle) {
    const result = state.result_state;
    const upstreamState = result ? `${lifeCycle}/${result}` : lifeCycle;
    const message = state.state_message || state.queue_reason || undefined;
    if (lifeCycle === 'TERMINATED') {
      if (result === 'SUCCESS_WITH_FAILURES') return { state: successWithFailures, upstreamState, message };
      const finished = result ? RESULT.get(result) : undefined;
      if (finished) return { state: finished, upstreamState, message };
      return { state: 'running', upstreamState, message, unknown: true };
    }
    const current = LIFE_CYCLE.get(lifeCycle);
    if (current) return { state: current, upstreamState, message };
    return { state: 'running', upstreamState, message, unknown: true };
  }
  const v2 = status?.state;
  if (v2 === 'TERMINATED') {
    const code = status?.termination_details?.code;
    const upstreamState = code ? `TERMINATED/${code}` : 'TERMINATED';
    const message = status?.termination_details?.message || undefined;
    if (code === 'SUCCESS_WITH_FAILURES') return { state: successWithFailures, upstreamState, message };
    const ended = code ? TERMINATION.get(code) : undefined;
    if (ended) return { state: ended, upstreamState, message };
    return { state: code ? 'failed' : 'running', upstreamState, message, ...(code ? {} : { unknown: true }) };
  }
  const v2State = v2 ? STATUS.get(v2) : undefined;
  if (v2State) return { state: v2State, upstreamState: v2!, message: status?.queue_details?.message };
  return { state: 'running', upstreamState: v2 ?? 'UNKNOWN', unknown: true };
}
