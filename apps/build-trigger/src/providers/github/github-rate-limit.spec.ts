import { rateLimitWaitMs, SECONDARY_LIMIT_WAIT_MS } from './github-rate-limit.js';

describe('GitHub rate limits', () => {
  const now = 1_700_000_000_000;

  it('honours retry-after first', () => {
    expect(
      rateLimitWaitMs(
        429,
        { 'retry-after': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700009999' },
        '',
        now,
      ),
    ).toBe(30_000);
    expect(
      rateLimitWaitMs(403, { 'retry-after': '5' }, 'You have exceeded a secondary rate limit', now),
    ).toBe(5_000);
  });

  it('waits until x-ratelimit-reset (plus a second) when the primary limit is spent', () => {
    expect(
      rateLimitWaitMs(
        403,
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 120) },
        'API rate limit exceeded',
        now,
      ),
    ).toBe(121_000);
    expect(
      rateLimitWaitMs(
        429,
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 - 5) },
        '',
        now,
      ),
    ).toBe(1_000);
  });

  it('waits a minute for a secondary limit without headers', () => {
    expect(
      rateLimitWaitMs(403, {}, 'You have exceeded a secondary rate limit. Please wait a few minutes', now),
    ).toBe(SECONDARY_LIMIT_WAIT_MS);
    expect(rateLimitWaitMs(429, {}, '', now)).toBe(SECONDARY_LIMIT_WAIT_MS);
  });

  it('does not treat a permission 403 or other statuses as rate limits', () => {
    expect(
      rateLimitWaitMs(
        403,
        { 'x-ratelimit-remaining': '4999' },
        'Resource not accessible by integration',
        now,
      ),
    ).toBeUndefined();
    expect(rateLimitWaitMs(500, { 'retry-after': '3' }, '', now)).toBeUndefined();
  });
});
