// What the evaluator process says to the pool.
import type { ExpressionSite } from '../dispatch/expression-site.js';
import type { JobResult } from './evaluation-job.js';

export type FromEvaluator =
  | { type: 'ready' }
  /** About to compile and run this expression (the time bound starts again). */
  | { type: 'expression'; site: ExpressionSite }
  | { type: 'result'; result: JobResult }
  /** A bug, not a binding's problem: the dispatch fails as it would in process. */
  | { type: 'error'; message: string };
