// The evaluator process (built as dist/tools/events-evaluator.mjs): evaluates one binding at a time for the
// pool of the process that forked it, saying which expression it starts before it starts it. It holds the
// environment of the last event it was sent. Started with a heap bound; the pool kills it past its time bound.
import type { Environment } from '@app/expr';
import { runJob, type EvaluationJob } from './evaluation-job.js';
import type { FromEvaluator } from './evaluator-messages.js';

let held: { id: number; env: Environment } | undefined;

const send = (message: FromEvaluator) => process.send!(message);

process.on('message', (job: EvaluationJob) => {
  if (job.env !== undefined) held = { id: job.envId, env: job.env };
  try {
    if (held?.id !== job.envId) throw new Error(`no environment ${job.envId} in this evaluator`);
    const result = runJob(job, held.env, (site) => send({ type: 'expression', site }));
    send({ type: 'result', result });
  } catch (err) {
    send({ type: 'error', message: (err as Error).stack ?? String(err) });
  }
});
// The pool closed, or the process that forked this one is gone.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
