import { MIN_POLL_MS, POLL_SHARE, PollSchedule } from './poll-schedule.js';

describe('PollSchedule: the open gates of an upstream share its read budget', () => {
  it('requeue = max(10 s, 60 s × open gates / (0.8 × callsPerMinute)); the summed rate stays at 0.8 × the budget', () => {
    const schedule = new PollSchedule();
    const now = 1_000_000;
    const requeues = Array.from({ length: 500 }, (_, i) => schedule.next('slack/default', `g${i}`, 50, now));
    expect(requeues[0]).toBe(MIN_POLL_MS);
    expect(requeues[499]).toBe(Math.ceil((60_000 * 500) / (POLL_SHARE * 50)));
    // In the steady state every gate polls once per requeue: 500 polls per 750 s is 40 a minute.
    const steady = schedule.next('slack/default', 'g0', 50, now + 1000);
    expect((500 / steady) * 60_000).toBeCloseTo(POLL_SHARE * 50, 5);
    // Another workspace has its own budget.
    expect(schedule.next('slack/ops', 'g0', 50, now)).toBe(MIN_POLL_MS);
  });

  it('a decided gate leaves; a gate that stops calling is forgotten after three missed polls', () => {
    const schedule = new PollSchedule();
    for (let i = 0; i < 100; i++) schedule.next('u', `g${i}`, 50, 0);
    schedule.close('u', 'g0');
    expect(schedule.open('u')).toBe(99);
    const requeue = schedule.next('u', 'g99', 50, 0);
    schedule.next('u', 'fresh', 50, 3 * requeue + 60_001);
    expect(schedule.open('u')).toBe(1);
  });

  it("a 429's Retry-After holds back every gate of the upstream", () => {
    const schedule = new PollSchedule();
    schedule.pause('u', 120_000, 0);
    expect(schedule.next('u', 'a', 50, 1000)).toBe(119_000);
    expect(schedule.next('v', 'a', 50, 1000)).toBe(MIN_POLL_MS);
  });
});
