import { mapAwsState } from '../../aws/aws-states.js';
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
export const mapEmrServerlessState = (state: unknown, details?: unknown): MappedState =>
  mapAwsState(JOB_RUN_STATES, state, details);
