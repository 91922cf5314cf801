import type { MappedState } from '../../job/job-run.js';
import type { Json } from '../upstream-reply.js';

/**
 * A pipeline run's `status` (Queued, InProgress, Succeeded, Failed, Canceling, Cancelled); a failed run's
 * `message` says why. The upstream state is the status as written.
 */
export function mapDataFactoryRun(run: Json): MappedState {
  const upstreamState = typeof run.status === 'string' && run.status !== '' ? run.status : 'Unknown';
  const message = typeof run.message === 'string' && run.message !== '' ? run.message : undefined;
  switch (upstreamState) {
    case 'Queued':
      return { state: 'queued', upstreamState };
    case 'InProgress':
    case 'Canceling':
      return { state: 'running', upstreamState };
    case 'Succeeded':
      return { state: 'succeeded', upstreamState, message };
    case 'Failed':
      return { state: 'failed', upstreamState, message };
    case 'Cancelled':
      return { state: 'cancelled', upstreamState, message };
    default:
      return { state: 'running', upstreamState, unknown: true };
  }
}
