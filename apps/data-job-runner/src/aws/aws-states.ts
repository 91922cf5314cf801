import type { JobState, MappedState } from '../job/job-run.js';

/**
 * An AWS status → normalised state through a backend's table; the non-empty `reasons` (a failure reason, an
 * error and its cause) make the message. A status the table does not know keeps the run polling, and says so.
 */
export function mapAwsState(
  table: ReadonlyMap<string, JobState>,
  status: unknown,
  ...reasons: unknown[]
): MappedState {
  const text = typeof status === 'string' && status !== '' ? status : 'unknown';
  const mapped = table.get(text);
  if (!mapped) return { state: 'running', upstreamState: text, unknown: true };
  const parts = reasons.filter((p): p is string => typeof p === 'string' && p !== '');
  return { state: mapped, upstreamState: text, ...(parts.length > 0 && { message: parts.join(': ') }) };
}
