import type { PluginLogger, UpstreamError } from '@app/plugin-kit';
import type { CallBudget } from './call-budget.js';
import { toSlackError, type CallSite } from './slack-errors.js';

/**
 * Runs one Slack call. A 429 whose Retry-After still fits in this plugin call is waited out and the call
 * is made once more (a rate-limited request was not executed, so repeating it is safe); a longer one becomes
 * a transient error carrying Retry-After, which the kit turns into Running with that requeue. Every failure
 * leaves as a kit error with a message for the workflow author.
 */
export async function slackCall<T>(
  site: CallSite,
  budget: CallBudget,
  logger: PluginLogger,
  call: () => Promise<T>,
): Promise<T> {
  let mapped: UpstreamError;
  try {
    return await call();
  } catch (err) {
    mapped = toSlackError(err, site);
  }
  const wait = mapped.retryAfterMs;
  if (mapped.status !== 429 || wait === undefined || wait > budget.remainingMs()) throw mapped;
  logger.info(
    { method: site.method, retryAfterMs: wait },
    `slack: ${site.method} rate limited; waiting ${wait} ms, then trying once more`,
  );
  await budget.wait(wait);
  try {
    return await call();
  } catch (err) {
    throw toSlackError(err, site);
  }
}
