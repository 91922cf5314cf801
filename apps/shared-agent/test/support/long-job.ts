// One backend's long job for the stop tests: its stand-in, seeded with a job that runs until it is cancelled.

/** Longer than any test: the job runs until cancelled. */
export const FOREVER = { polls: 1_000_000 };

export interface LongJob {
  standIn: { start(): Promise<unknown>; close(): Promise<void> };
  /** The plugin's settings that reach the stand-in (read once it has started: they hold its URL). */
  env(): Record<string, string>;
  /** The template's `plugin` of the backend's step: its long job, polled every second. */
  plugin(key: string): Record<string, unknown>;
  /** The cancel requests the stand-in received. */
  cancels(): number;
}

export const dataJob = (key: string, block: Record<string, unknown>) => ({
  'data-job': { ...block, key, pollInterval: '1s' },
});
