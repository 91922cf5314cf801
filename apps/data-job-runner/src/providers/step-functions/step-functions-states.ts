import { mapAwsState } from '../../aws/aws-states.js';
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
export const mapStepFunctionsState = (status: unknown, error?: unknown, cause?: unknown): MappedState =>
  mapAwsState(EXECUTION_STATES, status, error, cause);
