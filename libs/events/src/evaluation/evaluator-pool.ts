// Binding evaluation off the request loop: a pool of evaluator processes (forked lazily, at most `size`), each
// started with a heap bound and killed when one expression outlasts the time bound; a dead evaluator is
// replaced. Processes, not worker threads: V8 ends the whole process on a fatal error in any thread (a heap
// limit overrun by a single large allocation, an array past its size limit), and a worker's resourceLimits
// cannot prevent that.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setLongTimeout, type LongTimer } from '@app/contract';
import type { Environment } from '@app/expr';
import type { ExpressionSite } from '../dispatch/expression-site.js';
import type { EvaluationJob, JobResult } from './evaluation-job.js';
import type { FromEvaluator } from './evaluator-messages.js';
import { EVALUATION_QUEUE_LIMIT, heapBound, QUEUE_FULL, timeBound, type ExpressionLimits } from './limits.js';

export type EvaluationOutcome =
  | { kind: 'result'; result: JobResult }
  /** Stopped by a bound, in `site` when it had started one (a full queue starts none). */
  | { kind: 'bound'; site?: ExpressionSite; reason: string };

export type PoolJob = Omit<EvaluationJob, 'envId' | 'env'> & { env: Environment };

export interface PoolOptions {
  /** Evaluator processes at most. */
  size: number;
  limits: ExpressionLimits;
  /** The evaluator's script (the built one by default). */
  script?: string;
}

interface Running {
  job: PoolJob;
  resolve(outcome: EvaluationOutcome): void;
  reject(err: Error): void;
  site?: ExpressionSite;
  /** When the current expression started (or the job, before its first expression). */
  since: number;
  timer?: LongTimer;
  /** Set when the pool kills the evaluator for its time bound. */
  stoppedFor?: string;
}

interface Evaluator {
  child: ChildProcess;
  ready: boolean;
  envId?: number;
  running?: Running;
  /** The end of its stderr: V8's last words when it dies. */
  stderr: string;
}

/**
 * The evaluator's script, built next to the tools (dist/tools/events-evaluator.mjs) whose chunks hold this
 * code. From the TypeScript sources (the tests) it is the repository's build of it, which `npm test` makes first.
 */
function evaluatorScript(): string {
  const here = import.meta.url;
  const relative = here.endsWith('.ts') ? '../../../../dist/tools/' : '../';
  const script = fileURLToPath(new URL(`${relative}events-evaluator.mjs`, here));
  if (!existsSync(script)) throw new Error(`${script} is missing: run npm run build`);
  return script;
}

export class EvaluatorPool {
  private readonly evaluators: Evaluator[] = [];
  private readonly waiting: Running[] = [];
  private readonly envIds = new WeakMap<object, number>();
  private nextEnvId = 1;
  private closed = false;
  private readonly script: string;

  constructor(private readonly options: PoolOptions) {
    this.script = options.script ?? evaluatorScript();
  }

  /** Evaluates one binding in an evaluator; a bug in the evaluation rejects, a bound resolves `bound`. */
  evaluate(job: PoolJob): Promise<EvaluationOutcome> {
    if (this.closed) return Promise.reject(new Error('the evaluator pool is closed'));
    if (this.waiting.length >= EVALUATION_QUEUE_LIMIT)
      return Promise.resolve({ kind: 'bound', reason: QUEUE_FULL });
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, resolve, reject, since: 0 });
      this.pump();
    });
  }

  /** Starts an evaluator ahead of the first event, so that it does not wait for one. */
  warm(): void {
    if (this.closed || this.evaluators.length > 0) return;
    this.spawn();
    this.pump();
  }

  /** Stops every evaluator (a running evaluation is rejected). */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.waiting.splice(0)) waiting.reject(new Error('the evaluator pool is closed'));
    await Promise.all(
      this.evaluators.map(
        ({ child }) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.ref(); // until it is gone
            child.kill('SIGKILL');
          }),
      ),
    );
  }

  /** Nest calls this when the endpoint closes. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  private pump(): void {
    this.schedule();
    // Only an evaluator with work (running it, or starting while work waits) keeps this process alive.
    for (const e of this.evaluators) {
      const busy = e.running !== undefined || (!e.ready && this.waiting.length > 0);
      const channel = e.child.channel as { ref?(): void; unref?(): void } | undefined;
      if (busy) {
        e.child.ref();
        channel?.ref?.();
      } else {
        e.child.unref();
        channel?.unref?.();
      }
    }
  }

  private schedule(): void {
    while (this.waiting.length > 0) {
      const idle = this.evaluators.filter((e) => e.ready && !e.running);
      if (idle.length === 0) {
        const starting = this.evaluators.filter((e) => !e.ready).length;
        if (starting < this.waiting.length && this.evaluators.length < this.options.size) this.spawn();
        return;
      }
      const next = this.waiting.shift()!;
      const envId = this.envId(next.job.env);
      this.start(idle.find((e) => e.envId === envId) ?? idle[0]!, next, envId);
    }
  }

  private envId(env: Environment): number {
    let id = this.envIds.get(env);
    if (id === undefined) this.envIds.set(env, (id = this.nextEnvId++));
    return id;
  }

  private spawn(): void {
    const child = fork(this.script, [], {
      execArgv: [`--max-old-space-size=${this.options.limits.heapMiB}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const evaluator: Evaluator = { child, ready: false, stderr: '' };
    this.evaluators.push(evaluator);
    const stderr = child.stderr as Socket;
    stderr.unref();
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => (evaluator.stderr = (evaluator.stderr + chunk).slice(-4096)));
    child.on('message', (message: FromEvaluator) => this.onMessage(evaluator, message));
    // 'close', not 'exit': by then its stderr has been read to the end.
    child.once('close', () => this.onExit(evaluator));
    child.on('error', () => undefined); // a failed fork or send ends in 'exit' too
  }

  private start(evaluator: Evaluator, running: Running, envId: number): void {
    evaluator.running = running;
    const { env, ...rest } = running.job;
    const job: EvaluationJob = { ...rest, envId, ...(evaluator.envId !== envId && { env }) };
    evaluator.envId = envId;
    running.since = performance.now();
    evaluator.child.send(job);
    const { timeoutMs } = this.options.limits;
    const check = () => {
      const elapsed = performance.now() - running.since;
      if (elapsed < timeoutMs) {
        running.timer = setLongTimeout(check, timeoutMs - elapsed);
        return;
      }
      running.stoppedFor = timeBound(this.options.limits);
      evaluator.child.kill('SIGKILL');
    };
    running.timer = setLongTimeout(check, timeoutMs);
  }

  private onMessage(evaluator: Evaluator, message: FromEvaluator): void {
    const running = evaluator.running;
    if (message.type === 'ready') {
      evaluator.ready = true;
      this.pump();
      return;
    }
    if (!running) return;
    if (message.type === 'expression') {
      running.site = message.site;
      running.since = performance.now();
      return;
    }
    running.timer?.clear();
    evaluator.running = undefined;
    if (message.type === 'result') running.resolve({ kind: 'result', result: message.result });
    else running.reject(new Error(`evaluator: ${message.message}`));
    this.pump();
  }

  private onExit(evaluator: Evaluator): void {
    this.evaluators.splice(this.evaluators.indexOf(evaluator), 1);
    const running = evaluator.running;
    if (running) {
      running.timer?.clear();
      running.resolve({
        kind: 'bound',
        site: running.site,
        reason: running.stoppedFor ?? this.death(evaluator),
      });
    }
    if (this.closed) return;
    if (!evaluator.ready) {
      // It never started: the script is broken, not a binding. Do not fork it again and again.
      const err = new Error(`the evaluator process did not start: ${this.death(evaluator)}`);
      for (const waiting of this.waiting.splice(0)) waiting.reject(err);
      this.pump();
      return;
    }
    if (this.evaluators.length === 0) this.spawn(); // replaced, warm for the next event
    this.pump();
  }

  /** Why an evaluator the pool did not kill has died: V8 ends a process that runs out of heap. */
  private death({ child, stderr }: Evaluator): string {
    if (/out of memory|invalid size|allocation failed/i.test(stderr)) return heapBound(this.options.limits);
    const how = child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode}`;
    const said = stderr
      .trim()
      .split('\n')
      .find((line) => line.trim() !== '');
    return `the evaluator process ended (${how})${said ? `: ${said.trim()}` : ''}`;
  }
}
