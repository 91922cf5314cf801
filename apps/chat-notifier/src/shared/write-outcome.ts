import { UpstreamError } from '@app/plugin-kit';

/**
 * Whether a failed write (a post, a share) may still have been carried out upstream, so that the next attempt
 * must look before it sends again. Yes unless a reply said it was not: no reply at all (timeout, reset, a reply
 * too large to read), a 5xx other than 501, or an error of our own mid-call. A 4xx (429 included) and 501 mean
 * the service did not do it, unless the service's own answer says it may have (`saysMaybeDone`: Slack's
 * `internal_error` arrives with HTTP 200).
 */
export function mayHaveHappened(
  err: unknown,
  saysMaybeDone: (err: UpstreamError) => boolean = () => false,
): boolean {
  if (!(err instanceof UpstreamError)) return true;
  if (err.status === undefined || (err.status >= 500 && err.status !== 501)) return true;
  return saysMaybeDone(err);
}
