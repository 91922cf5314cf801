import { jest } from '@jest/globals';
import { createMemoryLogger, Redactor, UpstreamError } from '@app/plugin-kit';
import { WebAPIPlatformError, WebAPIRateLimitedError } from '@slack/web-api';
import { CallBudget } from './call-budget.js';
import { slackCall } from './slack-call.js';

const site = { method: 'chat.postMessage', workspace: 'default' };
const { logger } = createMemoryLogger(new Redactor());

describe('slackCall', () => {
  it('waits out a Retry-After that fits in the call, then tries exactly once more', async () => {
    const call = jest
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new WebAPIRateLimitedError(0.05))
      .mockResolvedValueOnce('ok');
    const started = Date.now();
    await expect(slackCall(site, new CallBudget(new AbortController().signal), logger, call)).resolves.toBe(
      'ok',
    );
    expect(call).toHaveBeenCalledTimes(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('a second 429 after the wait becomes a transient error carrying Retry-After', async () => {
    const call = jest.fn<() => Promise<string>>().mockRejectedValue(new WebAPIRateLimitedError(0.01));
    const err = await slackCall(site, new CallBudget(new AbortController().signal), logger, call).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ kind: 'transient', status: 429, retryAfterMs: 10 });
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('does not wait when Retry-After is longer than what is left of the call', async () => {
    const call = jest.fn<() => Promise<string>>().mockRejectedValue(new WebAPIRateLimitedError(30));
    const err = await slackCall(
      site,
      new CallBudget(new AbortController().signal, 15_000),
      logger,
      call,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ retryAfterMs: 30_000 });
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('the budget shrinks as the call goes on', () => {
    let now = 1000;
    const budget = new CallBudget(new AbortController().signal, 15_000, () => now);
    now += 14_000;
    expect(budget.remainingMs()).toBe(1000);
    now += 5000;
    expect(budget.remainingMs()).toBe(0);
  });

  it('stops waiting when the sidecar shuts down', async () => {
    const controller = new AbortController();
    const call = jest.fn<() => Promise<string>>().mockRejectedValue(new WebAPIRateLimitedError(5));
    const pending = slackCall(site, new CallBudget(controller.signal), logger, call);
    controller.abort(new Error('SIGTERM'));
    await expect(pending).rejects.toThrow('SIGTERM');
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('maps other failures without retrying', async () => {
    const call = jest
      .fn<() => Promise<string>>()
      .mockRejectedValue(new WebAPIPlatformError({ ok: false, error: 'channel_not_found' }));
    await expect(
      slackCall(site, new CallBudget(new AbortController().signal), logger, call),
    ).rejects.toMatchObject({ kind: 'permanent' });
    expect(call).toHaveBeenCalledTimes(1);
  });
});
