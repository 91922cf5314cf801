import { runOutcome, type RunState } from '@app/plugin-kit';

/** Normalised run states: queued (not yet doing the work), running, and the three terminal ones. */
export type JobState = RunState;

export function isTerminal(state: JobState): boolean {
  return runOutcome(state) !== undefined;
}

/** The result of a provider's state mapping table. */
export interface MappedState {
  state: JobState;
  upstreamState: string;
  message?: string;
  /** A value the table does not know: treated as running (the timeout still applies), logged as a warning. */
  unknown?: boolean;
}

/** What a provider needs to find a run again; JSON, kept in the execution state. */
export interface RunRef {
  runId: string;
  /** Airflow: the DAG the run belongs to. */
  dagId?: string;
  /** Livy: the batch name, checked on every poll (Livy reuses ids after a restart without recovery). */
  batchName?: string;
  /** EMR Serverless: the application the job run belongs to. */
  applicationId?: string;
  /** Glue, Cloud Run: the job the run belongs to. */
  jobName?: string;
  /** Dataproc: the batch's long-running operation, which is what a cancel cancels. */
  operation?: string;
}

/** A provider's view of a run, normalised. */
export interface JobRun {
  ref: RunRef;
  url?: string;
  state: JobState;
  /** The upstream's own words, e.g. `TERMINATED/FAILED`, `success`, `Error (20)`. */
  upstreamState: string;
  /** The upstream's explanation (state message, queue reason, last log line). */
  message?: string;
  /** Epoch ms, when the upstream says the run started / finished. */
  startedAt?: number;
  finishedAt?: number;
  /** Provider outputs known from this reply (Livy appId, ...). */
  extras?: Record<string, string>;
  /** The status is not known yet (Databricks run-now only returns an id): poll before replying. */
  provisional?: boolean;
  /** An upstream state the mapping does not know: treated as running, logged as a warning. */
  unknownState?: boolean;
  /** The upstream's reply, for the provider's own finish(); never stored or output. */
  raw?: unknown;
}

/** Extras fetched once a run has finished: outputs, and a detail for the node message. */
export interface RunExtras {
  outputs: Record<string, string>;
  detail?: string;
}

/** Milliseconds since the epoch from an upstream timestamp (ISO 8601, dbt's `2024-01-01 10:00:00.1+00:00`, epoch ms). */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === 'number') return value > 0 ? value : undefined;
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value.includes('T') ? value : value.replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : ms;
}
