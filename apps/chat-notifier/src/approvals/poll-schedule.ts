import { Injectable } from '@nestjs/common';

/** The share of an upstream's published limit the gates use unless the admin sets their budget. */
export const POLL_SHARE = 0.8;
/** No gate looks more often than this, however few are open. */
export const MIN_POLL_MS = 10_000;
/**
 * The window the limiter counts calls in: a minute, and a little more, because a read's HTTP calls follow its
 * grant by the time the read takes: counting grants over 63 s keeps the calls of every 60 s within the budget.
 */
export const LIMIT_WINDOW_MS = 63_000;

/**
 * The gates' budget on an upstream of a provider: the admin's `variable` (`SLACK_APPROVAL_CALLS_PER_MINUTE`,
 * checked at start-up), else 0.8 × the reader's published calls a minute.
 */
export function approvalBudget(env: object, variable: string, callsPerMinute: number): number {
  const setting = (env as Record<string, unknown>)[variable];
  return typeof setting === 'number' ? setting : Math.max(1, Math.floor(POLL_SHARE * callsPerMinute));
}

interface Upstream {
  /** Open gate → when it is forgotten if it does not call again (its workflow was stopped). */
  gates: Map<string, number>;
  /** A 429's Retry-After: no gate of the upstream looks before then. */
  pausedUntil: number;
  /** The earliest time the next poll may be given: polls are handed out this far apart. */
  nextSlot: number;
  /** The grants of the last LIMIT_WINDOW_MS, oldest first: when, and how many calls each. */
  granted: Array<{ at: number; calls: number }>;
  /** The calls of `granted`, summed. */
  calls: number;
}

/**
 * Shares an upstream's budget of B calls a minute among every open gate of this sidecar, two ways:
 *
 * - The schedule: a read costs C calls (every HTTP call it makes; a gate's first call, the search for an
 *   earlier request and the post, costs one read), so polls are handed out in slots 60 s × C / B apart, each
 *   gate taking the next free slot at least 10 s ahead. With N gates open every gate comes round after
 *
 *       requeue = max(10 s, 60 s × N × C / B)
 *
 * - The limiter, in real time: a poll that arrives early (the agent held it, a retry, another gate's burst)
 *   and would take the upstream's calls over B in the window does not call the upstream; it waits for its
 *   next slot. A 429 pauses every gate of the upstream for its Retry-After.
 */
@Injectable()
export class PollSchedule {
  private readonly upstreams = new Map<string, Upstream>();

  /**
   * Grants `calls` calls on `upstream` now if the window has room for them within `budget` (and no 429 holds
   * the upstream back); true if granted (they are counted), false if the poll must not call the upstream.
   */
  take(upstream: string, calls: number, budget: number, now = Date.now()): boolean {
    const u = this.upstream(upstream);
    while (u.granted.length > 0 && u.granted[0]!.at <= now - LIMIT_WINDOW_MS)
      u.calls -= u.granted.shift()!.calls;
    if (now < u.pausedUntil || u.calls + calls > budget) return false;
    u.granted.push({ at: now, calls });
    u.calls += calls;
    return true;
  }

  /** Registers the gate's poll now and returns when it should look again, in ms. */
  next(upstream: string, gate: string, calls: number, budget: number, now = Date.now()): number {
    const u = this.upstream(upstream);
    for (const [key, forgetAt] of u.gates) if (forgetAt <= now) u.gates.delete(key);
    u.gates.delete(gate);
    const slot = Math.max(u.nextSlot, now + MIN_POLL_MS, u.pausedUntil);
    u.nextSlot = slot + (60_000 * calls) / budget;
    const requeue = Math.ceil(slot - now);
    // A gate that misses three of its polls (its workflow was stopped or deleted) no longer holds a share.
    u.gates.set(gate, now + 3 * requeue + 60_000);
    return requeue;
  }

  /** The gate decided: it no longer polls. */
  close(upstream: string, gate: string): void {
    this.upstreams.get(upstream)?.gates.delete(gate);
  }

  /** The upstream answered 429: no gate of it reads before `retryAfterMs` has passed. */
  pause(upstream: string, retryAfterMs: number, now = Date.now()): void {
    const u = this.upstream(upstream);
    u.pausedUntil = Math.max(u.pausedUntil, now + retryAfterMs);
  }

  /** Gates open on `upstream` now. */
  open(upstream: string): number {
    return this.upstreams.get(upstream)?.gates.size ?? 0;
  }

  private upstream(name: string): Upstream {
    let u = this.upstreams.get(name);
    if (!u)
      this.upstreams.set(
        name,
        (u = { gates: new Map(), pausedUntil: 0, nextSlot: 0, granted: [], calls: 0 }),
      );
    return u;
  }
}
