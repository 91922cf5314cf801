import type { HeldTaskSet } from './taskset.js';

export interface DeferredTaskSet {
  namespace: string;
  name: string;
  shard: number;
}

/**
 * The TaskSets the agent works, within a memory budget: past it, a TaskSet that is not held yet waits as its
 * name only (first come, first served) and is read again once others leave; its tasks wait with it, none is
 * dropped. A TaskSet already held stays held as it grows.
 */
export class TaskSetStore {
  private readonly held = new Map<string, HeldTaskSet>();
  private readonly deferred = new Map<string, DeferredTaskSet>();
  private used = 0;

  constructor(private readonly budgetBytes: number) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.held.size;
  }

  get waiting(): number {
    return this.deferred.size;
  }

  get(key: string): HeldTaskSet | undefined {
    return this.held.get(key);
  }

  /** Holds (or updates) the TaskSet, or defers it when the budget has no room; answers which. */
  put(taskSet: HeldTaskSet): 'held' | 'deferred' {
    const previous = this.held.get(taskSet.key);
    if (!previous) {
      // One TaskSet larger than the whole budget is still held when nothing else is: it would wait forever.
      const full = this.used > 0 && this.used + taskSet.bytes > this.budgetBytes;
      if (full || this.deferred.size > 0) {
        // Those that waited first are read first: a newcomer joins the end of the line.
        if (!this.deferred.has(taskSet.key))
          this.deferred.set(taskSet.key, {
            namespace: taskSet.namespace,
            name: taskSet.name,
            shard: taskSet.shard,
          });
        if (full || this.firstDeferred() !== taskSet.key) return 'deferred';
        this.deferred.delete(taskSet.key);
      }
    }
    this.used += taskSet.bytes - (previous?.bytes ?? 0);
    this.held.set(taskSet.key, taskSet);
    return 'held';
  }

  remove(key: string): HeldTaskSet | undefined {
    this.deferred.delete(key);
    const taskSet = this.held.get(key);
    if (taskSet) {
      this.held.delete(key);
      this.used -= taskSet.bytes;
    }
    return taskSet;
  }

  /** Forgets every TaskSet of the shards; answers the keys of those that were held. */
  dropShards(shards: ReadonlySet<number>): string[] {
    for (const [key, d] of this.deferred) if (shards.has(d.shard)) this.deferred.delete(key);
    const keys = [...this.held.values()].filter((t) => shards.has(t.shard)).map((t) => t.key);
    for (const key of keys) this.remove(key);
    return keys;
  }

  keysOfShard(shard: number): string[] {
    return [...this.held.values()].filter((t) => t.shard === shard).map((t) => t.key);
  }

  /** The TaskSets waiting for room, oldest first, while there seems to be room for one more. */
  nextDeferred(): DeferredTaskSet | undefined {
    const key = this.firstDeferred();
    return key && this.used < this.budgetBytes ? this.deferred.get(key) : undefined;
  }

  private firstDeferred(): string | undefined {
    return this.deferred.keys().next().value;
  }
}
