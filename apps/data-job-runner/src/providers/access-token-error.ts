import { isNetworkError, isTransientStatus, UpstreamError } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';

/**
 * A failed token request of a vendor's auth library as the kit's errors: transient for the network, timeouts,
 * 429 and 5xx, else permanent; the library's words (`invalid_grant: Invalid JWT Signature.`) masked and shortened.
 */
export function accessTokenError(
  upstream: string,
  err: unknown,
  status: number | undefined,
  said: string,
): UpstreamError {
  const message = `${upstream}: access token${status === undefined ? '' : ` → ${status}`}: ${clipMasked(said, 500)}`;
  const transient =
    status === undefined
      ? isNetworkError(err) || (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError'
      : isTransientStatus(status);
  return new UpstreamError(transient ? 'transient' : 'permanent', message, { status, cause: err });
}
