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
