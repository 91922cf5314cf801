import type { JobState, MappedState } from '../../job/job-run.js';

const DAG_RUN_STATES = new Map<string, JobState>([
  ['queued', 'queued'],
  ['running', 'running'],
  ['success', 'succeeded'],
  ['failed', 'failed'],
]);

/**
 * Airflow DAG run state → normalised state. A run of a paused DAG stays `queued` forever; the plugin checks
 * `is_paused` before it starts a run, and the body's timeout covers a DAG paused later.
 */
export function mapAirflowState(state: unknown): MappedState {
  const text = typeof state === 'string' && state !== '' ? state : 'unknown';
  const mapped = DAG_RUN_STATES.get(text);
  return mapped
    ? { state: mapped, upstreamState: text }
    : { state: 'running', upstreamState: text, unknown: true };
}
