/** One stage of a fake upstream object: it stays in `state` for `polls` reads or `ms` milliseconds, whichever ends first. */
export interface Stage<S> {
  state: S;
  polls?: number;
  ms?: number;
}

/**
 * The life of a fake build, queue item or pipeline, driven by how often it is read (fast, deterministic
 * tests) or by time (demos). The last stage is final. `jump` forces a state (cancel, stop).
 */
export class Lifecycle<S> {
  private index = 0;
  private reads = 0;
  private since: number;

  constructor(
    private readonly stages: Array<Stage<S>>,
    private readonly now: () => number = Date.now,
  ) {
    if (stages.length === 0) throw new Error('a lifecycle needs at least one stage');
    this.since = now();
  }

  /** The current state without counting a read. */
  get state(): S {
    this.advanceByTime();
    return this.stages[this.index].state;
  }

  get final(): boolean {
    this.advanceByTime();
    return this.index === this.stages.length - 1;
  }

  /** The state as one poll sees it; counts the read. */
  read(): S {
    this.advanceByTime();
    const stage = this.stages[this.index];
    this.reads++;
    if (stage.polls !== undefined && this.reads >= stage.polls) this.next();
    return stage.state;
  }

  /** Ends the lifecycle in `state` (cancelled, aborted). */
  jump(state: S): void {
    this.stages.splice(this.index + 1);
    this.stages.push({ state });
    this.next();
  }

  private advanceByTime(): void {
    for (;;) {
      const stage = this.stages[this.index];
      if (
        this.index === this.stages.length - 1 ||
        stage.ms === undefined ||
        this.now() - this.since < stage.ms
      )
        return;
      this.since += stage.ms;
      this.index++;
      this.reads = 0;
    }
  }

  private next(): void {
    if (this.index < this.stages.length - 1) {
      this.index++;
      this.reads = 0;
      this.since = this.now();
    }
  }
}

/** A stage length as tests and demos give it: reads, milliseconds, or both. */
export interface Timing {
  polls?: number;
  ms?: number;
}
