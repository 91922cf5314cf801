import type { JobState, MappedState } from '../../job/job-run.js';

/** Dataproc Batch `state`. */
const STATES: Record<string, JobState> = {
  PENDING: 'queued',
  RUNNING: 'running',
  CANCELLING: 'running',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
};

export function mapDataprocState(state: unknown): MappedState {
  const known = typeof state === 'string' ? STATES[state] : undefined;
  const upstreamState = typeof state === 'string' ? state : 'STATE_UNSPECIFIED';
  return known ? { state: known, upstreamState } : { state: 'running', upstreamState, unknown: true };
}
