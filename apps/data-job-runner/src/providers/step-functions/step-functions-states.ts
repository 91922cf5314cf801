import type { JobState, MappedState } from '../../job/job-run.js';

/** DescribeExecution `status` values. */
const EXECUTION_STATES = new Map<string, JobState>([
  ['RUNNING', 'running'],
  // A redrive was asked for and has not begun yet: the execution goes on.
  ['PENDING_REDRIVE', 'running'],
  ['SUCCEEDED', 'succeeded'],
  ['FAILED', 'failed'],
  ['TIMED_OUT', 'failed'],
  ['ABORTED', 'cancelled'],
]);

/** Step Functions execution status → normalised state; `error` and `cause` make the message of a failure. */
export function mapStepFunctionsState(status: unknown, error?: unknown, cause?: unknown): MappedState {
  const text = typeof status === 'string' && status !== '' ? status : 'unknown';
  const mapped = EXECUTION_STATES.get(text);
  const parts = [error, cause].filter((p): p is string => typeof p === 'string' && p !== '');
  const message = parts.length > 0 ? parts.join(': ') : undefined;
  return mapped
    ? { state: mapped, upstreamState: text, ...(message && { message }) }
    : { state: 'running', upstreamState: text, unknown: true };
}
