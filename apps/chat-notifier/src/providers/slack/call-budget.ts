/** How long one plugin call may spend before the kit's 20 s deadline, less a margin for the work after a wait. */
export const CALL_BUDGET_MS = 20_000;
export const CALL_MARGIN_MS = 5_000;

/** The time left in the current plugin call, for deciding whether waiting out a Retry-After still fits. */
export class CallBudget {
  private readonly deadline: number;

  constructor(
    readonly signal: AbortSignal,
    budgetMs = CALL_BUDGET_MS - CALL_MARGIN_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.deadline = now() + budgetMs;
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  /** Sleeps `ms` unless the call is aborted (sidecar shutdown). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.signal.aborted) return reject(this.signal.reason as Error);
      const onAbort = () => {
        clearTimeout(timer);
        reject(this.signal.reason as Error);
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
