import type { MappedState } from '../../job/job-run.js';
import { isJson, type Json } from '../upstream-reply.js';

/**
 * A Cloud Run Execution has no state field: its `Completed` condition says how it ended (`CONDITION_SUCCEEDED`,
 * `CONDITION_FAILED` with the `executionReason` `CANCELLED` for a cancel), and until then it is queued while no
 * task has started. The upstream state reads `<condition state>[/<executionReason>]`.
 */
export function mapCloudRunExecution(execution: Json): MappedState {
  const conditions = Array.isArray(execution.conditions) ? execution.conditions.filter(isJson) : [];
  const completed = conditions.find((c) => c.type === 'Completed');
  const state = typeof completed?.state === 'string' ? completed.state : undefined;
  const reason =
    typeof completed?.executionReason === 'string' &&
    completed.executionReason !== 'EXECUTION_REASON_UNDEFINED'
      ? completed.executionReason
      : undefined;
  const upstreamState = `${state ?? 'CONDITION_UNSPECIFIED'}${reason ? `/${reason}` : ''}`;
  const message =
    typeof completed?.message === 'string' && completed.message !== '' ? completed.message : undefined;
  const started = typeof execution.startTime === 'string' || Number(execution.runningCount ?? 0) > 0;
  switch (state) {
    case 'CONDITION_SUCCEEDED':
      return { state: 'succeeded', upstreamState, message };
    case 'CONDITION_FAILED':
      return { state: reason === 'CANCELLED' ? 'cancelled' : 'failed', upstreamState, message };
    case 'CONDITION_PENDING':
    case 'CONDITION_RECONCILING':
      return { state: started || reason === 'CANCELLING' ? 'running' : 'queued', upstreamState };
    default:
      return { state: 'running', upstreamState, unknown: true };
  }
}
