import { setLongTimeout, type ExecuteTemplateReply, type LongTimer } from '@app/contract';
import type { LedgerEntry, LedgerStore } from './ledger-store.js';

/** How a reply came about, for logs and tests. */
export type LedgerSource = 'executed' | 'joined' | 'replayed' | 'deadline';

export interface LedgerOutcome {
  reply: ExecuteTemplateReply;
  source: LedgerSource;
  entry: LedgerEntry;
}

interface Flight {
  promise: Promise<ExecuteTemplateReply>;
  /** Callers still waiting for this flight within their deadline. */
  waiters: number;
}

/**
 * Idempotency for template.execute. One execution per key at a time (later identical calls join it);
 * Succeeded is remembered and replayed; Failed is not (the next call is a retry), except that a result
 * nobody was waiting for any more (the deadline passed) is kept until one caller has received it.
 */
export class ExecutionLedger {
  private readonly flights = new Map<string, Flight>();
  private readonly locks = new Map<string, Promise<void>>();

  constructor(
    readonly store: LedgerStore,
    private readonly now: () => number = Date.now,
  ) {}

  get inFlight(): number {
    return this.flights.size;
  }

  /** Whether an execution of `key` is running now (a new call for it joins instead of starting one). */
  isRunning(key: string): boolean {
    return this.flights.has(key);
  }

  /** Waits (bounded) for every flight to finish; used by graceful shutdown. */
  async drain(timeoutMs: number): Promise<boolean> {
    const all = Promise.allSettled([...this.flights.values()].map((f) => f.promise));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const done = await Promise.race([all.then(() => true as const), timeout]);
    clearTimeout(timer);
    return done;
  }

  /**
   * Runs `work` for `key` unless a result can be replayed or an identical call is already running.
   * Answers within `deadlineMs`: if the work is still going, `onDeadline(entry)` (the entry as of this call)
   * is the reply and the work finishes in the background; its result is kept for the next call.
   */
  async run(
    key: string,
    work: (entry: LedgerEntry) => Promise<ExecuteTemplateReply>,
    deadlineMs: number,
    onDeadline: (entry: LedgerEntry) => ExecuteTemplateReply,
  ): Promise<LedgerOutcome> {
    const { flight, joined, replay, entry } = await this.exclusive(key, async () => {
      const stored = await this.store.get(key);
      const current: LedgerEntry = stored
        ? { ...stored, calls: stored.calls + 1, updatedAt: this.now() }
        : { transientFailures: 0, calls: 1, createdAt: this.now(), updatedAt: this.now() };
      if (current.result) {
        const result = current.result;
        if (result.node?.phase !== 'Succeeded') delete current.result; // a Failed result is delivered once
        await this.store.set(key, current);
        return { replay: result, entry: current };
      }
      await this.store.set(key, current);
      const existing = this.flights.get(key);
      if (existing) return { flight: existing, joined: true, entry: current };
      return { flight: this.launch(key, current, work), joined: false, entry: current };
    });
    if (replay) return { reply: replay, source: 'replayed', entry };
    return this.wait(flight!, joined ? 'joined' : 'executed', deadlineMs, onDeadline, entry);
  }

  /** The remembered Succeeded reply of `key`, if any (a cheap lookup for repeats; counts as a call). */
  async succeeded(key: string): Promise<ExecuteTemplateReply | undefined> {
    if (this.flights.has(key)) return undefined;
    return this.exclusive(key, async () => {
      const stored = await this.store.get(key);
      if (stored?.result?.node?.phase !== 'Succeeded') return undefined;
      await this.store.set(key, { ...stored, calls: stored.calls + 1, updatedAt: this.now() });
      return stored.result;
    });
  }

  /** Updates the handler-owned state of `key` (kept across calls and in a persistent store across restarts). */
  async saveState(key: string, state: unknown): Promise<void> {
    await this.exclusive(key, async () => {
      const entry = await this.store.get(key);
      if (entry) await this.store.set(key, { ...entry, state, updatedAt: this.now() });
    });
  }

  async update(key: string, change: (entry: LedgerEntry) => void): Promise<void> {
    await this.exclusive(key, async () => {
      const entry = await this.store.get(key);
      if (!entry) return;
      change(entry);
      entry.updatedAt = this.now();
      await this.store.set(key, entry);
    });
  }

  private launch(
    key: string,
    entry: LedgerEntry,
    work: (entry: LedgerEntry) => Promise<ExecuteTemplateReply>,
  ): Flight {
    const flight: Flight = { waiters: 0, promise: undefined as unknown as Promise<ExecuteTemplateReply> };
    flight.promise = Promise.resolve().then(() => work(entry));
    this.flights.set(key, flight);
    // Registered before any waiter, so it sees the waiter count as of settlement.
    flight.promise.then(
      (reply) => this.settle(key, flight, reply),
      () => this.settle(key, flight, undefined),
    );
    return flight;
  }

  private async settle(key: string, flight: Flight, reply: ExecuteTemplateReply | undefined): Promise<void> {
    const delivered = flight.waiters > 0;
    await this.exclusive(key, async () => {
      if (this.flights.get(key) === flight) this.flights.delete(key);
      const phase = reply?.node?.phase;
      const keep = phase === 'Succeeded' || (!delivered && phase === 'Failed');
      if (!keep) return;
      const entry = await this.store.get(key);
      const base: LedgerEntry = entry ?? {
        transientFailures: 0,
        calls: 0,
        createdAt: this.now(),
        updatedAt: this.now(),
      };
      await this.store.set(key, { ...base, result: reply, updatedAt: this.now() });
    });
  }

  private async wait(
    flight: Flight,
    source: LedgerSource,
    deadlineMs: number,
    onDeadline: (entry: LedgerEntry) => ExecuteTemplateReply,
    entry: LedgerEntry,
  ): Promise<LedgerOutcome> {
    flight.waiters++;
    let timer: LongTimer | undefined;
    const deadline = new Promise<undefined>((resolve) => {
      timer = setLongTimeout(() => resolve(undefined), deadlineMs).unref();
    });
    try {
      const reply = await Promise.race([flight.promise, deadline]);
      if (reply === undefined) return { reply: onDeadline(entry), source: 'deadline', entry };
      return { reply, source, entry };
    } finally {
      timer?.clear();
      flight.waiters--;
    }
  }

  /** Per-key critical section: lookups, flight starts and result recording never interleave for one key. */
  private async exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.locks.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }
}
