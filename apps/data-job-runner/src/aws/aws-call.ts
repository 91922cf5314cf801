import { UpstreamError } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { ReplyTooLargeError } from '@app/plugin-kit/upstream/upstream-scope.js';

/** The names AWS services give throttling (the SDK retries them too). */
const THROTTLING = new Set([
  'ThrottlingException',
  'TooManyRequestsException',
  'Throttling',
  'ThrottledException',
  'RequestLimitExceeded',
  'RequestThrottledException',
  'ProvisionedThroughputExceededException',
]);

interface SdkError {
  name?: string;
  message?: string;
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number };
}

/** The error code (`__type` without its namespace) of an AWS error reply, when `err` came from one. */
export function awsErrorCode(err: unknown): string | undefined {
  const sdk = (err instanceof UpstreamError ? err.cause : err) as SdkError | undefined;
  return sdk?.$metadata?.httpStatusCode !== undefined ? sdk.name : undefined;
}

/**
 * An AWS SDK failure as the kit's UpstreamError, after the SDK's own retries: throttling, 5xx and no reply are
 * transient, the rest permanent. The message names the upstream, the operation, the status and the code.
 */
export function toUpstreamError(upstream: string, operation: string, err: unknown): Error {
  if (err instanceof UpstreamError || err instanceof ReplyTooLargeError) return err;
  const sdk = (err ?? {}) as SdkError;
  const status = sdk.$metadata?.httpStatusCode;
  const detail = clipMasked(sdk.message ?? String(err), 300);
  if (status === undefined) {
    if (sdk.name === 'CredentialsProviderError')
      return UpstreamError.permanent(`${upstream}: no AWS credentials: ${detail}`, { cause: err });
    return UpstreamError.transient(
      `${upstream}: ${operation} → no reply (${sdk.name ?? 'Error'}: ${detail})`,
      {
        cause: err,
      },
    );
  }
  const message = `${upstream}: ${operation} → ${status} ${sdk.name ?? 'Error'}: ${detail}`;
  const transient = THROTTLING.has(sdk.name ?? '') || status === 429 || status >= 500;
  return transient
    ? UpstreamError.transient(message, { status, cause: err })
    : UpstreamError.permanent(message, { status, cause: err });
}

/** Runs one SDK call, its failure turned into an UpstreamError. */
export async function awsCall<T>(upstream: string, operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toUpstreamError(upstream, operation, err);
  }
}
