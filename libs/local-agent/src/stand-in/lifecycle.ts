/** How long a step lasts: `polls` status reads or `ms` milliseconds, whichever ends first; else one read. */
export interface Timing {
  polls?: number;
  ms?: number;
}

/** One step of a scripted upstream object (a run, a build, a queue item, a pipeline). */
export interface LifecycleStep<S> extends Timing {
  state: S;
  /** The upstream's explanation while in this step (state message, queue reason, log line). */
  message?: string;
}

/**
 * The walk of a fake upstream object through its states, driven by status reads (fast, deterministic tests)
 * or by time (demos). The last step is final. `redirect` replaces the rest of the walk (cancel, kill, stop).
 */
export class Lifecycle<S> {
  private steps: Array<LifecycleStep<S>>;
  private index = 0;
  private reads = 0;
  private enteredAt: number;
  private finishedAt?: number;

  constructor(
    steps: Array<LifecycleStep<S>>,
    private readonly now: () => number = Date.now,
  ) {
    if (steps.length === 0) throw new Error('a lifecycle needs at least one step');
    this.steps = steps;
    this.enteredAt = now();
    this.settle();
  }

  /** The current step without counting a read. */
  peek(): LifecycleStep<S> {
    this.advanceByTime();
    return this.steps[this.index];
  }

  /** The current state without counting a read. */
  get state(): S {
    return this.peek().state;
  }

  /** The current step, counting one status read (which may move the walk on for the next read). */
  read(): LifecycleStep<S> {
    const step = this.peek();
    const byReads = step.polls !== undefined || step.ms === undefined;
    if (byReads && this.index < this.steps.length - 1) {
      this.reads++;
      if (this.reads >= (step.polls ?? 1)) this.enter(this.index + 1);
    }
    return step;
  }

  get finished(): boolean {
    this.advanceByTime();
    return this.index === this.steps.length - 1;
  }

  /** When the final step was reached (epoch ms). */
  get endedAt(): number | undefined {
    this.advanceByTime();
    return this.finishedAt;
  }

  /** Replaces the rest of the walk, starting now. */
  redirect(steps: Array<LifecycleStep<S>>): void {
    this.steps = [...this.steps.slice(0, this.index), ...steps];
    this.finishedAt = undefined;
    this.enter(this.index);
  }

  private enter(index: number, at = this.now()): void {
    this.index = index;
    this.reads = 0;
    this.enteredAt = at;
    this.settle();
  }

  private settle(): void {
    if (this.index === this.steps.length - 1) this.finishedAt ??= this.enteredAt;
  }

  private advanceByTime(): void {
    for (;;) {
      const step = this.steps[this.index];
      if (this.index === this.steps.length - 1 || step.ms === undefined) return;
      if (this.now() - this.enteredAt < step.ms) return;
      this.enter(this.index + 1, this.enteredAt + step.ms);
    }
  }
}
