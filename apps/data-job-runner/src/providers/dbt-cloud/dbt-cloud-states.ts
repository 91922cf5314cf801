import type { JobState, MappedState } from '../../job/job-run.js';

/** dbt Cloud run status codes (`DbtCloudJobRunStatus`): 1, 2, 3 in progress; 10, 20, 30 terminal. */
const STATUS: Record<number, { state: JobState; word: string }> = {
  1: { state: 'queued', word: 'Queued' },
  2: { state: 'queued', word: 'Starting' },
  3: { state: 'running', word: 'Running' },
  10: { state: 'succeeded', word: 'Success' },
  20: { state: 'failed', word: 'Error' },
  30: { state: 'cancelled', word: 'Cancelled' },
};

/** dbt Cloud status → normalised state; upstreamState is `<humanized> (<code>)`, e.g. `Error (20)`. */
export function mapDbtCloudStatus(status: unknown, humanized?: unknown): MappedState {
  const known = typeof status === 'number' ? STATUS[status] : undefined;
  const word = typeof humanized === 'string' && humanized !== '' ? humanized : (known?.word ?? 'Unknown');
  const upstreamState = `${word} (${String(status)})`;
  return known ? { state: known.state, upstreamState } : { state: 'running', upstreamState, unknown: true };
}
