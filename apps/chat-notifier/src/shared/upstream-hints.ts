import { UpstreamError } from '@app/plugin-kit';

/** Status → what the admin or author should do about it. */
export type Hints = Partial<Record<number, string>>;

/** The same error with the hint for its status appended (`…: <hint>`); anything else unchanged. */
export function withHint(err: unknown, hints: Hints): unknown {
  if (!(err instanceof UpstreamError) || err.status === undefined) return err;
  const hint = hints[err.status];
  if (!hint) return err;
  return new UpstreamError(err.kind, `${err.message}: ${hint}`, {
    status: err.status,
    retryAfterMs: err.retryAfterMs,
    cause: err.cause,
  });
}

/**
 * Whether a failed write may still have happened: no reply at all (timeout, reset) or a 5xx. A 4xx (429
 * included) means the service did not do it.
 */
export function outcomeUnknown(err: unknown): boolean {
  if (!(err instanceof UpstreamError)) return true;
  return err.status === undefined || err.status >= 500;
}
