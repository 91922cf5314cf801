import type { JobState, MappedState } from '../../job/job-run.js';

/** GetJobRun `jobRun.state` values. */
const JOB_RUN_STATES = new Map<string, JobState>([
  ['SUBMITTED', 'queued'],
  ['PENDING', 'queued'],
  ['SCHEDULED', 'queued'],
  ['QUEUED', 'queued'],
  ['RUNNING', 'running'],
  // Cancelled, not yet ended: the job run's end is what counts.
  ['CANCELLING', 'running'],
  ['SUCCESS', 'succeeded'],
  ['FAILED', 'failed'],
  ['CANCELLED', 'cancelled'],
]);

/** EMR Serverless job run state → normalised state; `stateDetails` is the message. */
export function mapEmrServerlessState(state: unknown, details?: unknown): MappedState {
  const text = typeof state === 'string' && state !== '' ? state : 'unknown';
  const mapped = JOB_RUN_STATES.get(text);
  const message = typeof details === 'string' && details !== '' ? details : undefined;
  return mapped
    ? { state: mapped, upstreamState: text, ...(message && { message }) }
    : { state: 'running', upstreamState: text, unknown: true };
}
