import { setLongTimeout } from '@app/contract';

/**
 * The signal a handler sees: aborted at shutdown or after `limitMs`. One controller, one timer and one listener,
 * released when the handler settles; AbortSignal.any + AbortSignal.timeout cost about 6% of the CPU of a call and
 * left a 10-minute timer behind per execution.
 */
export function executionSignal(
  shutdown: AbortSignal,
  limitMs: number,
): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  if (shutdown.aborted) {
    controller.abort(shutdown.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const onShutdown = (): void => controller.abort(shutdown.reason);
  shutdown.addEventListener('abort', onShutdown, { once: true });
  const timer = setLongTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    limitMs,
  ).unref();
  return {
    signal: controller.signal,
    release: () => {
      timer.clear();
      shutdown.removeEventListener('abort', onShutdown);
    },
  };
}
