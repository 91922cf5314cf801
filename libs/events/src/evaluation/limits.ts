// The emulator's bounds on evaluating binding expressions. The real server has none: an expression that never
// ends holds its request (and a queue worker) forever, one that allocates without end takes the server down.

import { ExprRuntimeError } from '@app/expr';
import { runFailure, type ExpressionSite } from '../dispatch/expression-site.js';

export interface ExpressionLimits {
  /** Wall-clock milliseconds one expression may take to compile and run. */
  timeoutMs: number;
  /** The V8 heap (old space) of each evaluator process, in MiB. */
  heapMiB: number;
}

/**
 * 5 s: the slowest expressions within expr's memory budget (a groupBy or sortBy over 999,999 items) take under
 * 2 s here on a busy machine. 256 MiB: they need up to 128 MiB of heap; an idle evaluator uses about 10 MiB.
 */
export const DEFAULT_EXPRESSION_LIMITS: Readonly<ExpressionLimits> = { timeoutMs: 5000, heapMiB: 256 };

/** Bindings waiting for an evaluator beyond this many fail at once (only concurrent sync requests queue). */
export const EVALUATION_QUEUE_LIMIT = 256;

export function timeBound(limits: ExpressionLimits): string {
  return `the emulator stopped the evaluation after ${limits.timeoutMs} ms (its --expression-timeout; the real server has no time limit)`;
}

export function heapBound(limits: ExpressionLimits): string {
  return `the evaluation ran out of the emulator's ${limits.heapMiB} MiB heap (its --expression-heap; the real server has no such limit)`;
}

export const QUEUE_FULL = `the emulator's evaluation queue is full (${EVALUATION_QUEUE_LIMIT} bindings waiting for an evaluator)`;

/** The hint `events test` adds to a binding stopped by a bound. */
export const BOUND_HINT =
  'the emulator bounds each expression in time and memory (--expression-timeout, --expression-heap); the real server does not: with this event it would hang or run out of memory';

/** Argo's words for a binding whose expression `site` was stopped by a bound (the reason alone without one). */
export function boundFailure(site: ExpressionSite | undefined, reason: string): string {
  return site ? runFailure(site, new ExprRuntimeError(reason, site.source, 0).message) : reason;
}
