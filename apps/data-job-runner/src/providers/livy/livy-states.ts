import type { JobState, MappedState } from '../../job/job-run.js';

/** Livy SessionState values (shared with interactive sessions); a batch normally walks starting → running → success | dead. */
const SESSION_STATES = new Map<string, JobState>([
  ['not_started', 'queued'],
  ['starting', 'queued'],
  ['recovering', 'running'],
  ['idle', 'running'],
  ['running', 'running'],
  ['busy', 'running'],
  ['shutting_down', 'running'],
  ['success', 'succeeded'],
  ['dead', 'failed'],
  ['error', 'failed'],
  ['killed', 'cancelled'],
]);

/** Livy batch state → normalised state (`killed`: the application was killed, by us or by someone else). */
export function mapLivyState(state: unknown): MappedState {
  const text = typeof state === 'string' && state !== '' ? state : 'unknown';
  const mapped = SESSION_STATES.get(text);
  return mapped
    ? { state: mapped, upstreamState: text }
    : { state: 'running', upstreamState: text, unknown: true };
}
