import { mapAwsState } from '../../aws/aws-states.js';
import type { JobState, MappedState } from '../../job/job-run.js';

/** DescribePipelineExecution `PipelineExecutionStatus` values. */
const EXECUTION_STATES = new Map<string, JobState>([
  ['Executing', 'running'],
  // Stopped, not yet ended: the execution's end is what counts.
  ['Stopping', 'running'],
  ['Succeeded', 'succeeded'],
  ['Failed', 'failed'],
  ['Stopped', 'cancelled'],
]);

/** SageMaker pipeline execution status → normalised state; `FailureReason` is the message. */
export const mapSagemakerPipelinesState = (status: unknown, failureReason?: unknown): MappedState =>
  mapAwsState(EXECUTION_STATES, status, failureReason);
