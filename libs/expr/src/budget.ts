// The step and time budget of one run. expr's VM bounds a run's memory (vm.memGrow) but neither its steps nor
// its time: `let r = 1..700; all(r, all(r, all(r, true)))` allocates 700 elements and runs 343 million
// iterations, holding a single-threaded host for a minute. A host that evaluates expressions of people it
// does not trust (the shared agent's successCondition) gives each run a budget of both.
import { fail } from './errors.js';

export interface EvaluationBudget {
  /**
   * Most steps one run may take: every node evaluated (a closure's body once per element) and every element
   * the run makes (the ranges, lists, maps and builtins that expr's memory budget counts).
   */
  readonly maxSteps?: number;
  /** Most wall-clock milliseconds one run may take, checked with the steps. */
  readonly timeoutMs?: number;
}

/** The time is read once per this many steps (performance.now() is cheap, but not free). */
const CLOCK_EVERY = 1024;

let steps = 0;
let maxSteps = Infinity;
let deadline = Infinity;
let nextClock = CLOCK_EVERY;

/** Starts a run's count afresh (each expr.Run has its own VM). */
export function resetBudget(budget: EvaluationBudget = {}): void {
  steps = 0;
  nextClock = CLOCK_EVERY;
  maxSteps = budget.maxSteps ?? Infinity;
  deadline = budget.timeoutMs === undefined ? Infinity : performance.now() + budget.timeoutMs;
}

/** Counts `n` steps; fails the run past either bound, in the words of expr's memory budget. */
export function spendSteps(n: number | bigint = 1): void {
  steps += Number(n);
  if (steps > maxSteps) fail('step budget exceeded');
  if (steps >= nextClock) {
    nextClock = steps + CLOCK_EVERY;
    if (performance.now() > deadline) fail('time budget exceeded');
  }
}
