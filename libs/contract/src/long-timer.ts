// Node's timers take at most 2^31 - 1 ms (24.8 days): a longer delay fires after 1 ms, with only a
// TimeoutOverflowWarning. A plugin answering `requeue: "720h"` was so called again at once, 2,186 times in
// 6 s, and `timeoutSeconds: 2592000` failed at once. Every delay that comes from input (a plugin's requeue, a
// template's timeout, an upstream's Retry-After, a setting) goes through these, which chain timers so that
// none fires early.

/** The longest delay one Node timer takes. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LongTimer {
  /** Cancels it; nothing fires afterwards. */
  clear(): void;
  /** Lets the process exit while it is pending. */
  unref(): LongTimer;
}

/** setTimeout for any delay: past MAX_TIMER_MS in steps of it; Infinity never fires; negative or NaN at once. */
export function setLongTimeout(callback: () => void, ms: number): LongTimer {
  let left = Number.isNaN(ms) ? 0 : Math.max(0, ms);
  let timer: NodeJS.Timeout | undefined;
  let unref = false;
  const arm = (): void => {
    if (left === Infinity) return;
    const step = Math.min(left, MAX_TIMER_MS);
    left -= step;
    timer = setTimeout(left > 0 ? arm : callback, step);
    if (unref) timer.unref();
  };
  arm();
  const handle: LongTimer = {
    clear: () => {
      left = Infinity;
      clearTimeout(timer);
    },
    unref: () => {
      unref = true;
      timer?.unref();
      return handle;
    },
  };
  return handle;
}

/** Resolves after `ms`, however long (see setLongTimeout). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setLongTimeout(resolve, ms));
}
