/** One step of a scripted run: it lasts `polls` status reads (default 1) or, with `ms`, that long. */
export interface LifecycleStep<S> {
  state: S;
  polls?: number;
  ms?: number;
  /** The upstream's explanation while in this step (state message, log line, ...). */
  message?: string;
}

/**
 * The walk of one upstream run through its states, driven by status reads (fast, deterministic tests) or
 * by time (the demo). The last step is final. `redirect` replaces the rest of the walk (cancel, kill).
 */
export class Lifecycle<S> {
  private steps: LifecycleStep<S>[];
  private index = 0;
  private reads = 0;
  private enteredAt: number;
  private finishedAt?: number;

  constructor(
    steps: LifecycleStep<S>[],
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

  /** The current step, counting one status read (which may move the walk on for the next read). */
  read(): LifecycleStep<S> {
    const step = this.peek();
    if (step.ms === undefined && this.index < this.steps.length - 1) {
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
  redirect(steps: LifecycleStep<S>[]): void {
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
    let step = this.steps[this.index];
    while (
      step.ms !== undefined &&
      this.index < this.steps.length - 1 &&
      this.now() - this.enteredAt >= step.ms
    ) {
      this.enter(this.index + 1, this.enteredAt + step.ms);
      step = this.steps[this.index];
    }
  }
}
