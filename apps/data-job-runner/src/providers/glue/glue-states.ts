import type { JobState, MappedState } from '../../job/job-run.js';

/** GetJobRun `JobRunState` values. */
const RUN_STATES = new Map<string, JobState>([
  ['WAITING', 'queued'],
  ['STARTING', 'queued'],
  ['RUNNING', 'running'],
  // Stopped, not yet ended: the run's end is what counts.
  ['STOPPING', 'running'],
  ['SUCCEEDED', 'succeeded'],
  ['FAILED', 'failed'],
  ['TIMEOUT', 'failed'],
  ['ERROR', 'failed'],
  ['EXPIRED', 'failed'],
  ['STOPPED', 'cancelled'],
]);

/** Glue job run state → normalised state; `ErrorMessage` is the message. */
export function mapGlueState(state: unknown, errorMessage?: unknown): MappedState {
  const text = typeof state === 'string' && state !== '' ? state : 'unknown';
  const mapped = RUN_STATES.get(text);
  const message = typeof errorMessage === 'string' && errorMessage !== '' ? errorMessage : undefined;
  return mapped
    ? { state: mapped, upstreamState: text, ...(message && { message }) }
    : { state: 'running', upstreamState: text, unknown: true };
}
