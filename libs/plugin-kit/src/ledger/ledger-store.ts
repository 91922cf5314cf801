import type { ExecuteTemplateReply } from '@app/contract';

/** What the kit remembers about one execution key. */
export interface LedgerEntry {
  /** Handler-owned state, e.g. the id of the upstream run it started. Must be JSON-serialisable. */
  state?: unknown;
  /** A final reply not yet superseded: Succeeded is replayed forever, Failed is delivered once. */
  result?: ExecuteTemplateReply;
  /** Consecutive transient upstream failures, for the retry budget. */
  transientFailures: number;
  /** What the last of them said (the node message names it while the next attempt runs). */
  lastFailure?: string;
  /** Calls seen for this key (1 on the first call). */
  calls: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * Storage behind the ledger. The default is in memory (lost on restart, which is why plugins also use the
 * upstream's own idempotency keys); an implementation backed by a shared store can be plugged in.
 */
export interface LedgerStore {
  get(key: string): Promise<LedgerEntry | undefined>;
  set(key: string, entry: LedgerEntry): Promise<void>;
  delete(key: string): Promise<void>;
  readonly size: number;
}

export interface MemoryLedgerStoreOptions {
  /** Most entries kept; the least recently used go first. */
  maxEntries?: number;
  /** Entries untouched for this long are dropped. */
  maxIdleMs?: number;
  now?: () => number;
}

/** Bounded LRU map with idle expiry. */
export class MemoryLedgerStore implements LedgerStore {
  private readonly entries = new Map<string, LedgerEntry>();
  private readonly maxEntries: number;
  private readonly maxIdleMs: number;
  private readonly now: () => number;

  constructor(options: MemoryLedgerStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 5000;
    this.maxIdleMs = options.maxIdleMs ?? 24 * 3600_000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<LedgerEntry | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.updatedAt > this.maxIdleMs) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  async set(key: string, entry: LedgerEntry): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.evict();
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  private evict(): void {
    const cutoff = this.now() - this.maxIdleMs;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && entry.updatedAt >= cutoff) break;
      this.entries.delete(key);
    }
  }
}
