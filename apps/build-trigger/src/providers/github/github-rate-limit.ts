import { parseRetryAfter } from '@app/plugin-kit';

/** Back-off when GitHub gives no hint (docs: "wait at least one minute"). */
export const SECONDARY_LIMIT_WAIT_MS = 60_000;

type Headers = Record<string, unknown>;

/**
 * How long GitHub asks us to wait, or undefined when a 403/429 is not a rate limit (e.g. a missing
 * permission). Order, per GitHub's docs: `retry-after`; then `x-ratelimit-remaining: 0` with
 * `x-ratelimit-reset` (epoch seconds); then one minute for a secondary limit without headers.
 */
export function rateLimitWaitMs(
  status: number,
  headers: Headers,
  message: string,
  now = Date.now(),
): number | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const retryAfter = parseRetryAfter(headers['retry-after'], now);
  if (retryAfter !== undefined) return retryAfter;
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    // One second past the reset, so the first retry does not land just before it.
    return Number.isFinite(reset) && reset > 0
      ? Math.max(0, reset * 1000 - now) + 1000
      : SECONDARY_LIMIT_WAIT_MS;
  }
  if (status === 429 || /rate limit/i.test(message)) return SECONDARY_LIMIT_WAIT_MS;
  return undefined;
}
