import { Injectable } from '@nestjs/common';

/** The share of an upstream's read budget the gates may use: the rest is left to the notifier and other apps. */
export const POLL_SHARE = 0.8;
/** No gate looks more often than this, however few are open. */
export const MIN_POLL_MS = 10_000;

interface Upstream {
  /** Open gate → when it is forgotten if it does not call again (its workflow was stopped). */
  gates: Map<string, number>;
  /** A 429's Retry-After: no gate of the upstream looks before then. */
  pausedUntil: number;
  /** The earliest time the next poll may be given: polls are handed out this far apart. */
  nextSlot: number;
}

/**
 * Spreads the reads of every open gate of this sidecar over an upstream's published budget. Each poll of a gate
 * makes one call of each read method; with an upstream whose methods allow R calls a minute, the polls of its
 * gates are handed out in slots 60 s / (0.8 × R) apart (1.5 s for Slack's 50), each gate taking the next free
 * slot at least 10 s ahead. With N gates open every gate so comes round after
 *
 *     requeue = max(10 s, 60 s × N / (0.8 × R))
 *
 * and the summed rate stays at 0.8 × R per method. A burst of gates is staggered (the 500th gate of a burst takes
 * the 500th slot) rather than read all at once; a 429 pauses every gate of the upstream for its Retry-After.
 */
@Injectable()
export class PollSchedule {
  private readonly upstreams = new Map<string, Upstream>();

  /** Registers the gate's poll now and returns when it should look again, in ms. */
  next(upstream: string, gate: string, callsPerMinute: number, now = Date.now()): number {
    const u = this.upstream(upstream);
    for (const [key, forgetAt] of u.gates) if (forgetAt <= now) u.gates.delete(key);
    u.gates.delete(gate);
    const slot = Math.max(u.nextSlot, now + MIN_POLL_MS, u.pausedUntil);
    u.nextSlot = slot + 60_000 / (POLL_SHARE * callsPerMinute);
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
    if (!u) this.upstreams.set(name, (u = { gates: new Map(), pausedUntil: 0, nextSlot: 0 }));
    return u;
  }
}
