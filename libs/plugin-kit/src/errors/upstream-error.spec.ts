import { isNetworkError, isTransientStatus, parseRetryAfter, UpstreamError } from './upstream-error.js';

describe('upstream errors', () => {
  it.each([
    [408, true],
    [425, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [501, false],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [409, false],
    [422, false],
  ])('status %d transient: %s', (status, transient) => expect(isTransientStatus(status)).toBe(transient));

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('30')).toBe(30_000);
    expect(parseRetryAfter(['2'])).toBe(2000);
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('recognises network failures', () => {
    expect(isNetworkError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isNetworkError(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe(true);
    expect(isNetworkError(new Error('x'))).toBe(false);
  });

  it('carries kind, status and Retry-After', () => {
    const e = UpstreamError.transient('slack: rate limited', { status: 429, retryAfterMs: 3000 });
    expect(e).toMatchObject({
      kind: 'transient',
      transient: true,
      status: 429,
      retryAfterMs: 3000,
      name: 'UpstreamError',
    });
    expect(UpstreamError.permanent('no').transient).toBe(false);
  });
});
