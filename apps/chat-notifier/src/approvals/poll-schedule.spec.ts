import { approvalBudget, LIMIT_WINDOW_MS, MIN_POLL_MS, PollSchedule } from './poll-schedule.js';

describe('PollSchedule: the open gates of an upstream share its read budget', () => {
  it('polls are handed out 60 s × C / B apart: N gates come round every 60 s × N × C / B', () => {
    const schedule = new PollSchedule();
    const now = 1_000_000;
    const spacing = 60_000 / 40;
    const requeues = Array.from({ length: 500 }, (_, i) =>
      schedule.next('slack/default', `g${i}`, 1, 40, now),
    );
    expect(requeues[0]).toBe(MIN_POLL_MS);
    expect(requeues[499]).toBe(MIN_POLL_MS + 499 * spacing);
    expect(schedule.open('slack/default')).toBe(500);
    // Each gate polls again when its slot comes: in the steady state gate 0 is next after the other 499.
    let t = now + MIN_POLL_MS;
    const again = schedule.next('slack/default', 'g0', 1, 40, t);
    expect(again).toBe(MIN_POLL_MS + 500 * spacing - MIN_POLL_MS);
    // Over any minute of the steady state at most 0.8 × 50 slots are given out.
    const slots: number[] = [];
    for (let i = 1; i < 500; i++) {
      t = now + MIN_POLL_MS + i * spacing;
      slots.push(t + schedule.next('slack/default', `g${i}`, 1, 40, t));
    }
    expect(slots.filter((s) => s >= slots[0]! && s < slots[0]! + 60_000)).toHaveLength(40);
    // Another workspace has its own budget.
    expect(schedule.next('slack/ops', 'g0', 1, 40, now)).toBe(MIN_POLL_MS);
  });

  it('a decided gate leaves; a gate that stops calling is forgotten after three missed polls', () => {
    const schedule = new PollSchedule();
    for (let i = 0; i < 100; i++) schedule.next('u', `g${i}`, 1, 40, 0);
    schedule.close('u', 'g0');
    expect(schedule.open('u')).toBe(99);
    const requeue = schedule.next('u', 'g99', 1, 40, 0);
    schedule.next('u', 'fresh', 1, 40, 3 * requeue + 60_001);
    expect(schedule.open('u')).toBe(1);
  });

  it("a 429's Retry-After holds back every gate of the upstream", () => {
    const schedule = new PollSchedule();
    schedule.pause('u', 120_000, 0);
    expect(schedule.next('u', 'a', 1, 40, 1000)).toBe(119_000);
    expect(schedule.next('u', 'b', 1, 40, 1000)).toBe(120_500);
    expect(schedule.next('v', 'a', 1, 40, 1000)).toBe(MIN_POLL_MS);
  });

  it('the limiter: no poll takes the calls of any window over the budget; a 429 holds every gate back', () => {
    const schedule = new PollSchedule();
    const granted: number[] = [];
    // 500 gates asking every 100 ms for 3 minutes, 5 calls a read, a budget of 40 calls a minute.
    for (let t = 0; t < 180_000; t += 100)
      for (let g = 0; g < 5; g++) if (schedule.take('u', 5, 40, t)) granted.push(t);
    for (const start of granted)
      expect(granted.filter((t) => t >= start && t < start + LIMIT_WINDOW_MS).length * 5).toBeLessThanOrEqual(
        40,
      );
    expect(granted.length).toBeGreaterThanOrEqual(3 * 8 - 8);
    expect(schedule.take('v', 5, 40, 0)).toBe(true);
    schedule.pause('w', 30_000, 0);
    expect(schedule.take('w', 1, 40, 29_999)).toBe(false);
    expect(schedule.take('w', 1, 40, 30_000)).toBe(true);
  });

  it("the budget: the admin's <PROVIDER>_APPROVAL_CALLS_PER_MINUTE, else 0.8 × the published limit", () => {
    expect(approvalBudget({}, 'SLACK_APPROVAL_CALLS_PER_MINUTE', 50)).toBe(40);
    expect(
      approvalBudget({ SLACK_APPROVAL_CALLS_PER_MINUTE: 10 }, 'SLACK_APPROVAL_CALLS_PER_MINUTE', 50),
    ).toBe(10);
    expect(approvalBudget({}, 'APPROVALS_GITHUB_CALLS_PER_MINUTE', 83)).toBe(66);
  });
});
