import { UpstreamError } from '@app/plugin-kit';
import { mayHaveHappened } from './write-outcome.js';

describe('whether a failed write may still have happened', () => {
  it('yes without a reply, on a 5xx, or on an error of our own; no on a 4xx, a 429 or a 501', () => {
    expect(mayHaveHappened(UpstreamError.transient('reset'))).toBe(true);
    expect(mayHaveHappened(UpstreamError.permanent('reply larger than 4 MiB'))).toBe(true);
    expect(mayHaveHappened(new TypeError('x is undefined'))).toBe(true);
    expect(mayHaveHappened(UpstreamError.transient('x', { status: 503 }))).toBe(true);
    expect(mayHaveHappened(UpstreamError.transient('x', { status: 429 }))).toBe(false);
    expect(mayHaveHappened(UpstreamError.permanent('x', { status: 400 }))).toBe(false);
    expect(mayHaveHappened(UpstreamError.permanent('x', { status: 501 }))).toBe(false);
  });

  it("a reply that says not done, unless the service's own answer says maybe", () => {
    const ok200 = UpstreamError.transient('slack: internal_error', { status: 200 });
    expect(mayHaveHappened(ok200)).toBe(false);
    expect(mayHaveHappened(ok200, (e) => e.message.endsWith('internal_error'))).toBe(true);
  });
});
