import { mapAwsState } from '../../aws/aws-states.js';
import type { JobState, MappedState } from '../../job/job-run.js';

/** GetJobRun `JobRunState` values. */
const RUN_STATES = new Map<string, JobState>([
  ['WAITING', 'queued'],
  ['STARTING', 'queued'],
  ['RUNNING', 'running'],
  // Stopped, not yet ended: the run's end is what counts.
  ['STOPPING', 'running'],
  ['SUCCEEDED', 'succeeded'],
  ['FAILED', 'failed'],
  ['TIMEOUT', 'failed'],
  ['ERROR', 'failed'],
  ['EXPIRED', 'failed'],
  ['STOPPED', 'cancelled'],
]);

/** Glue job run state → normalised state; `ErrorMessage` is the message. */
export const mapGlueState = (state: unknown, errorMessage?: unknown): MappedState =>
  mapAwsState(RUN_STATES, state, errorMessage);
