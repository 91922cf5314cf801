/**
 * Tasks waiting to run and those running, bounded: at most `maxInFlight` run at once; the others wait in a
 * line per TaskSet, and the TaskSets take turns (one workflow with a thousand tasks does not hold up the
 * next one's first). Nothing waiting is ever dropped, except with its TaskSet.
 */
export class TaskQueue {
  private readonly lines = new Map<string, string[]>();
  private readonly waiting = new Set<string>();
  private readonly running = new Map<string, Set<Promise<void>>>();
  private active = 0;
  private paused = false;

  constructor(
    private readonly maxInFlight: number,
    private readonly run: (key: string, nodeId: string) => Promise<void>,
  ) {}

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.size;
  }

  /** Queues a task unless it is waiting already. */
  push(key: string, nodeId: string): void {
    const id = `${key}\n${nodeId}`;
    if (this.waiting.has(id)) return;
    this.waiting.add(id);
    const line = this.lines.get(key);
    if (line) line.push(nodeId);
    else this.lines.set(key, [nodeId]);
    this.pump();
  }

  /** Forgets the waiting tasks of a TaskSet (its running ones finish). */
  drop(key: string): void {
    for (const nodeId of this.lines.get(key) ?? []) this.waiting.delete(`${key}\n${nodeId}`);
    this.lines.delete(key);
  }

  /** Resolves when the running tasks of these TaskSets have finished, or after `timeoutMs`; answers which. */
  async settle(keys: Iterable<string>, timeoutMs: number): Promise<boolean> {
    const running = [...keys].flatMap((k) => [...(this.running.get(k) ?? [])]);
    if (running.length === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      Promise.all(running).then(() => true),
      new Promise<false>((r) => (timer = setTimeout(() => r(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    return done;
  }

  /** Every TaskSet with a running task. */
  runningKeys(): string[] {
    return [...this.running.keys()];
  }

  /** Stops starting tasks (graceful stop); those waiting stay where they are. */
  pause(): void {
    this.paused = true;
  }

  private pump(): void {
    while (!this.paused && this.active < this.maxInFlight && this.lines.size > 0) {
      const [key, line] = this.lines.entries().next().value as [string, string[]];
      const nodeId = line.shift()!;
      // The TaskSet goes to the end of the turn order; an empty line leaves it.
      this.lines.delete(key);
      if (line.length > 0) this.lines.set(key, line);
      this.waiting.delete(`${key}\n${nodeId}`);
      this.start(key, nodeId);
    }
  }

  private start(key: string, nodeId: string): void {
    this.active++;
    const set = this.running.get(key) ?? new Set<Promise<void>>();
    this.running.set(key, set);
    const task: Promise<void> = this.run(key, nodeId)
      .catch(() => undefined)
      .finally(() => {
        this.active--;
        set.delete(task);
        if (set.size === 0) this.running.delete(key);
        this.pump();
      });
    set.add(task);
  }
}
