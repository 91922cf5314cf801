import { MIN_POLL_MS, POLL_SHARE, PollSchedule } from './poll-schedule.js';

describe('PollSchedule: the open gates of an upstream share its read budget', () => {
  it('polls are handed out 60 s / (0.8 × callsPerMinute) apart: N gates come round every 60 s × N / (0.8 × R)', () => {
    const schedule = new PollSchedule();
    const now = 1_000_000;
    const spacing = 60_000 / (POLL_SHARE * 50);
    const requeues = Array.from({ length: 500 }, (_, i) => schedule.next('slack/default', `g${i}`, 50, now));
    expect(requeues[0]).toBe(MIN_POLL_MS);
    expect(requeues[499]).toBe(MIN_POLL_MS + 499 * spacing);
    expect(schedule.open('slack/default')).toBe(500);
    // Each gate polls again when its slot comes: in the steady state gate 0 is next after the other 499.
    let t = now + MIN_POLL_MS;
    const again = schedule.next('slack/default', 'g0', 50, t);
    expect(again).toBe(MIN_POLL_MS + 500 * spacing - MIN_POLL_MS);
    // Over any minute of the steady state at most 0.8 × 50 slots are given out.
    const slots: number[] = [];
    for (let i = 1; i < 500; i++) {
      t = now + MIN_POLL_MS + i * spacing;
      slots.push(t + schedule.next('slack/default', `g${i}`, 50, t));
    }
    expect(slots.filter((s) => s >= slots[0]! && s < slots[0]! + 60_000)).toHaveLength(POLL_SHARE * 50);
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
    expect(schedule.next('u', 'b', 50, 1000)).toBe(120_500);
    expect(schedule.next('v', 'a', 50, 1000)).toBe(MIN_POLL_MS);
  });
});
