/**
 * Tasks waiting to run and those running, bounded: at most `maxInFlight` run at once, and at most
 * `maxPerNamespace` of one namespace, so that one namespace's tasks that hang cannot hold every slot. The
 * others wait in a line per TaskSet; the namespaces take turns, and within one its TaskSets (a namespace with
 * a thousand workflows does not hold up another's first task, nor one workflow with a thousand tasks the next
 * one's). Nothing waiting is ever dropped, except with its TaskSet.
 */
export class TaskQueue {
  /** Namespace → TaskSet key → its waiting tasks; both maps in turn order. */
  private readonly lines = new Map<string, Map<string, string[]>>();
  private readonly waiting = new Set<string>();
  private readonly running = new Map<string, Set<Promise<void>>>();
  private readonly runningIn = new Map<string, number>();
  private active = 0;
  private paused = false;

  constructor(
    private readonly maxInFlight: number,
    private readonly run: (key: string, nodeId: string) => Promise<void>,
    private readonly maxPerNamespace = maxInFlight,
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
    const namespace = namespaceOf(key);
    const taskSets = this.lines.get(namespace) ?? new Map<string, string[]>();
    this.lines.set(namespace, taskSets);
    const line = taskSets.get(key);
    if (line) line.push(nodeId);
    else taskSets.set(key, [nodeId]);
    this.pump();
  }

  /** Forgets the waiting tasks of a TaskSet (its running ones finish). */
  drop(key: string): void {
    const namespace = namespaceOf(key);
    const taskSets = this.lines.get(namespace);
    for (const nodeId of taskSets?.get(key) ?? []) this.waiting.delete(`${key}\n${nodeId}`);
    taskSets?.delete(key);
    if (taskSets?.size === 0) this.lines.delete(namespace);
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
    while (!this.paused && this.active < this.maxInFlight) {
      const namespace = [...this.lines.keys()].find(
        (ns) => (this.runningIn.get(ns) ?? 0) < this.maxPerNamespace,
      );
      if (namespace === undefined) return;
      const taskSets = this.lines.get(namespace)!;
      const [key, line] = taskSets.entries().next().value as [string, string[]];
      const nodeId = line.shift()!;
      // The TaskSet goes to the end of its namespace's turn order, the namespace to the end of theirs; an
      // empty line leaves.
      taskSets.delete(key);
      if (line.length > 0) taskSets.set(key, line);
      this.lines.delete(namespace);
      if (taskSets.size > 0) this.lines.set(namespace, taskSets);
      this.waiting.delete(`${key}\n${nodeId}`);
      this.start(key, nodeId, namespace);
    }
  }

  private start(key: string, nodeId: string, namespace: string): void {
    this.active++;
    this.runningIn.set(namespace, (this.runningIn.get(namespace) ?? 0) + 1);
    const set = this.running.get(key) ?? new Set<Promise<void>>();
    this.running.set(key, set);
    const task: Promise<void> = this.run(key, nodeId)
      .catch(() => undefined)
      .finally(() => {
        this.active--;
        const left = this.runningIn.get(namespace)! - 1;
        if (left > 0) this.runningIn.set(namespace, left);
        else this.runningIn.delete(namespace);
        set.delete(task);
        if (set.size === 0) this.running.delete(key);
        this.pump();
      });
    set.add(task);
  }
}

/** The namespace of a TaskSet key (`<namespace>/<name>`). */
function namespaceOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? key : key.slice(0, slash);
}
