/**
 * A call that would start one execution more than the plugin may run at once. The front answers it with
 * 503 and Retry-After; Argo's agent retries a 503 with backoff, so the node simply waits its turn.
 */
export class OverloadedError extends Error {
  constructor(
    readonly pluginKey: string,
    readonly limit: number,
  ) {
    super(`${pluginKey}: ${limit} executions are running (MAX_EXECUTIONS); call refused with 503`);
    this.name = 'OverloadedError';
  }
}
