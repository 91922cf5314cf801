import type { JobState, MappedState } from '../../job/job-run.js';

/** PipelineJob `state` (PipelineState). */
const STATES: Record<string, JobState> = {
  PIPELINE_STATE_QUEUED: 'queued',
  PIPELINE_STATE_PENDING: 'queued',
  PIPELINE_STATE_RUNNING: 'running',
  PIPELINE_STATE_CANCELLING: 'running',
  PIPELINE_STATE_PAUSED: 'running',
  PIPELINE_STATE_SUCCEEDED: 'succeeded',
  PIPELINE_STATE_FAILED: 'failed',
  PIPELINE_STATE_CANCELLED: 'cancelled',
};

export function mapVertexPipelineState(state: unknown): MappedState {
  const known = typeof state === 'string' ? STATES[state] : undefined;
  const upstreamState = typeof state === 'string' ? state : 'PIPELINE_STATE_UNSPECIFIED';
  return known ? { state: known, upstreamState } : { state: 'running', upstreamState, unknown: true };
}
