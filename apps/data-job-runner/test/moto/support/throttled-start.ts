import { newKey, type Target } from './same-steps.js';

/** A stand-in whose next calls of an operation can be refused as throttled, and the calls it answered. */
interface ThrottlingStandIn {
  readonly operationCalls: string[];
  readonly server: { calls: Array<{ status: number }> };
  throttle(operation: string, times?: number, type?: string): void;
}

/**
 * moto 5.2.5 throttles nothing (none of its Batch, Glue, EMR Serverless, Step Functions or SageMaker handlers
 * raises ThrottlingException or TooManyRequestsException), so throttling is held against the stand-in only: its
 * start is refused twice as throttled, the SDK's standard retries carry it, and the step starts one run.
 * Returns the statuses the start's attempts got, the calls the provider made, and the runs the stand-in holds
 * after the start less before.
 */
export async function throttledStart<B>(
  target: Target<B>,
  standIn: ThrottlingStandIn,
  throttled: { operation: string; type: string },
  block: B,
  runs: () => number,
) {
  const attemptsOf = () =>
    standIn.server.calls.filter((_, i) => standIn.operationCalls[i] === throttled.operation);
  const [attemptsBefore, runsBefore] = [attemptsOf().length, runs()];
  target.takeCalls();
  standIn.throttle(throttled.operation, 2, throttled.type);
  const run = await target.start(await target.provider(), block, newKey());
  return {
    state: run.state,
    statuses: attemptsOf()
      .slice(attemptsBefore)
      .map((c) => c.status),
    calls: target.takeCalls(),
    newRuns: runs() - runsBefore,
  };
}

/** What a throttled start comes to: the statuses its attempts got, the provider's calls, and one run, queued. */
export const oneRunAfter = (statuses: number[], calls: string[]) => ({
  state: 'queued',
  statuses,
  calls,
  newRuns: 1,
});
