import { jest } from '@jest/globals';
import { MAX_TIMER_MS, setLongTimeout, sleep } from './long-timer.js';

describe('setLongTimeout: a delay past 2^31 ms never fires early', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fires after 30 days (720h), not after 1 ms as setTimeout does', () => {
    const fired = jest.fn();
    const thirtyDays = 30 * 24 * 3600 * 1000;
    setLongTimeout(fired, thirtyDays);
    jest.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(thirtyDays - MAX_TIMER_MS - 1);
    expect(fired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('fires short delays as setTimeout does; Infinity never; a cleared timer never, in any step', () => {
    const short = jest.fn();
    const never = jest.fn();
    const cleared = jest.fn();
    setLongTimeout(short, 50);
    setLongTimeout(never, Infinity);
    const timer = setLongTimeout(cleared, MAX_TIMER_MS * 2);
    jest.advanceTimersByTime(50);
    expect(short).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(MAX_TIMER_MS + 10);
    timer.clear();
    jest.advanceTimersByTime(MAX_TIMER_MS * 3);
    expect([never.mock.calls.length, cleared.mock.calls.length]).toEqual([0, 0]);
  });

  it('sleep waits as long as asked', async () => {
    let done = false;
    void sleep(MAX_TIMER_MS + 1000).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(MAX_TIMER_MS + 999);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
