import { AxiosError } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { errorDetail } from '@app/plugin-kit/upstream/error-detail.js';

const REASON_PHRASES = new Set([
  'bad request',
  'unauthorized',
  'forbidden',
  'not found',
  'conflict',
  'method not allowed',
]);

/** The short text of an upstream error body (Jenkins sends Jetty HTML pages), if there is one. */
function detailOf(err: UpstreamError): string | undefined {
  const cause = err.cause;
  const raw = cause instanceof AxiosError ? errorDetail(cause.response?.data, 160) : undefined;
  // Jetty headings repeat the status ("HTTP ERROR 400 Nothing is submitted"): keep only what follows it,
  // and nothing when that is the bare reason phrase.
  const detail = raw?.replace(/^(HTTP ERROR|Error) \d{3}\s*/i, '').trim();
  return detail && !REASON_PHRASES.has(detail.toLowerCase()) ? detail : undefined;
}

/**
 * Permanent Jenkins errors in the words of the job they concern (`jenkins: job folder/x not found (404)`).
 * Transient ones (5xx, timeouts, resets) keep the kit's message: the kit retries them.
 */
export function describeJenkinsError(err: unknown, subject: string): unknown {
  if (!(err instanceof UpstreamError) || err.transient || err.status === undefined) return err;
  const detail = detailOf(err);
  const suffix = detail ? `: ${detail}` : '';
  let message: string;
  switch (err.status) {
    case 401:
      message = `jenkins: authentication failed (401): check the configured user and API token${suffix}`;
      break;
    case 403:
      message = `jenkins: permission denied on ${subject} (403)${suffix}`;
      break;
    case 404:
      message = `jenkins: ${subject} not found (404)`;
      break;
    case 409:
      message = `jenkins: ${subject} is not buildable (409; is it disabled?)${suffix}`;
      break;
    case 400:
      message = `jenkins: ${subject} rejected the request (400)${suffix}`;
      break;
    default:
      message = `jenkins: ${subject}: HTTP ${err.status}${suffix}`;
  }
  return new UpstreamError('permanent', message, { status: err.status, cause: err });
}
