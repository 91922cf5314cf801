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
export function mapSagemakerPipelinesState(status: unknown, failureReason?: unknown): MappedState {
  const text = typeof status === 'string' && status !== '' ? status : 'unknown';
  const mapped = EXECUTION_STATES.get(text);
  const message = typeof failureReason === 'string' && failureReason !== '' ? failureReason : undefined;
  return mapped
    ? { state: mapped, upstreamState: text, ...(message && { message }) }
    : { state: 'running', upstreamState: text, unknown: true };
}
