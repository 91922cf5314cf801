import type { JobState, MappedState } from '../../job/job-run.js';

/** DescribeJobs `status` values. */
const JOB_STATES = new Map<string, JobState>([
  ['SUBMITTED', 'queued'],
  ['PENDING', 'queued'],
  ['RUNNABLE', 'queued'],
  ['STARTING', 'running'],
  ['RUNNING', 'running'],
  ['SUCCEEDED', 'succeeded'],
  ['FAILED', 'failed'],
]);

/**
 * AWS Batch job status → normalised state. Batch has no cancelled state: a job the plugin terminated ends FAILED
 * with the plugin's reason, and reads as cancelled. The message is the status reason, then the container's.
 */
export function mapBatchState(
  status: unknown,
  detail: {
    statusReason?: string;
    containerReason?: string;
    exitCode?: number;
    terminatedByUs?: boolean;
  } = {},
): MappedState {
  const text = typeof status === 'string' && status !== '' ? status : 'unknown';
  const mapped = JOB_STATES.get(text);
  if (!mapped) return { state: 'running', upstreamState: text, unknown: true };
  const exit =
    detail.exitCode !== undefined && detail.exitCode !== 0 ? `exit code ${detail.exitCode}` : undefined;
  const parts = [detail.statusReason, detail.containerReason, exit].filter((p): p is string => !!p);
  const message = parts.length > 0 ? parts.join('; ') : undefined;
  const state = mapped === 'failed' && detail.terminatedByUs ? 'cancelled' : mapped;
  return { state, upstreamState: text, ...(message && { message }) };
}
