import type { ExecuteTemplateReply } from '@app/contract';
import { UpstreamError } from '../errors/upstream-error.js';
import type { ExecutionContext } from '../execution/plugin-handler.js';
import { failed, running, succeeded } from '../execution/replies.js';
import type { RunTracker } from './active-runs.js';
import type {
  CancelResult,
  RemoteRunDriver,
  RemoteRunState,
  RunObservation,
  RunReport,
} from './remote-run-driver.js';

export interface RemoteRunOptions {
  /** false: Succeeded right after the start. */
  wait: boolean;
  pollIntervalMs: number;
  /** Cancel the run upstream and fail once it has run this long. */
  timeoutMs?: number;
  /** Requeue while a handle is being resolved (an observation with `soon`). */
  soonMs?: number;
  /** Transient errors while polling or cancelling wait at least one poll interval, not just the backoff. */
  retryAtPollInterval?: boolean;
  /**
   * With wait: false, a run that has already ended when it is begun (adopted after a restart, over at once)
   * is reported as it ended; by default it is reported as started, like any other.
   */
  reportEndedWhenNotWaiting?: boolean;
  /** What the log lines call a run (`build`); default `run`. */
  noun?: string;
  /** The plugin's ActiveRuns, for CANCEL_ON_SHUTDOWN. */
  tracker?: RunTracker;
  /** The clock (tests). */
  now?: () => number;
}

export type RemoteRunContext<Ref, Run> = Pick<
  ExecutionContext<object, RemoteRunState<Ref, Run>>,
  'key' | 'logger' | 'signal' | 'state'
>;

/**
 * The long-running remote run, one call at a time. A stored final reply is repeated. The first call begins
 * the run (start or adopt) and replies Running, or Succeeded with wait: false. Later calls make exactly one
 * poll each until the run ends (Succeeded/Failed, kept in the state), or the timeout passes: the run is
 * cancelled upstream and the node fails, unless the cancel shows it ended on its own meanwhile. The requeue
 * is the poll interval, shortened so that the call after the timeout comes on time.
 */
export function executeRemoteRun<Ref, Run>(
  ctx: RemoteRunContext<Ref, Run>,
  driver: RemoteRunDriver<Ref, Run>,
  options: RemoteRunOptions,
): Promise<ExecuteTemplateReply> {
  return new RemoteRun(ctx, driver, options).execute();
}

/**
 * The workflow was stopped while the run went on: the run an earlier call began is cancelled upstream, once,
 * and the final reply says so (a later identical call repeats it). Nothing is sent for a run that has ended or
 * was never begun. Answers whether a cancel was sent.
 */
export async function cancelRemoteRun<Ref, Run>(
  ctx: RemoteRunContext<Ref, Run>,
  driver: RemoteRunDriver<Ref, Run>,
  options: Pick<RemoteRunOptions, 'noun' | 'tracker' | 'now'>,
): Promise<boolean> {
  const state = ctx.state.get();
  if (!state || state.final || state.cancelRequestedAt !== undefined) return false;
  const noun = options.noun ?? 'run';
  const cancelRequestedAt = (options.now ?? Date.now)();
  const after = await driver.cancel(state.ref, ctx.signal);
  const final = failed(`${noun} cancelled: the workflow was stopped`);
  await ctx.state.set({ ...state, run: after ?? state.run, cancelRequestedAt, final });
  options.tracker?.forget(ctx.key);
  ctx.logger.info(driver.describe(state.run), `${noun} cancelled: the workflow was stopped`);
  return true;
}

type State<Ref, Run> = RemoteRunState<Ref, Run>;

class RemoteRun<Ref, Run> {
  private readonly now: () => number;
  private readonly noun: string;

  constructor(
    private readonly ctx: RemoteRunContext<Ref, Run>,
    private readonly driver: RemoteRunDriver<Ref, Run>,
    private readonly options: RemoteRunOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.noun = options.noun ?? 'run';
  }

  async execute(): Promise<ExecuteTemplateReply> {
    const state = this.ctx.state.get();
    if (state?.final) return state.final;
    if (!state) return this.begin();
    const { timeoutMs } = this.options;
    if (timeoutMs !== undefined && this.now() - state.startedAt >= timeoutMs) return this.timeOut(state);
    const seen = await this.upstream(() => this.driver.poll(state.ref));
    return this.report(observed(state, seen), seen);
  }

  private async begin(): Promise<ExecuteTemplateReply> {
    const begun = await this.driver.begin();
    const now = this.now();
    let state: State<Ref, Run> = {
      startedAt: Math.min(begun.startedAt ?? now, now),
      ref: begun.ref,
      run: begun.run,
    };
    await this.ctx.state.set(state); // the handle is kept even if the provisional poll fails
    this.ctx.logger.info(this.driver.describe(begun.run), this.beganMessage(begun.adopted));
    let seen: RunObservation<Ref, Run> = begun;
    if (begun.provisional) {
      seen = await this.upstream(() => this.driver.poll(begun.ref));
      state = observed(state, seen);
    }
    const ended = this.driver.outcome(seen.run) !== undefined;
    if (!this.options.wait && !(ended && this.options.reportEndedWhenNotWaiting))
      return this.conclude(state, 'Succeeded', this.driver.started(seen.run, state, begun.adopted));
    return this.report(state, seen);
  }

  private beganMessage(adopted: boolean | undefined): string {
    if (adopted === undefined) return `${this.noun} started (or adopted)`;
    return adopted ? `found the ${this.noun} an earlier call started` : `${this.noun} started`;
  }

  /** Final when the run has ended; else the state is kept, the run tracked, and the reply is Running. */
  private async report(
    state: State<Ref, Run>,
    seen: RunObservation<Ref, Run>,
  ): Promise<ExecuteTemplateReply> {
    if (this.driver.outcome(state.run) !== undefined) return this.finish(state);
    await this.ctx.state.set(state);
    const { ref, run } = state;
    // The closure lives as long as the run is tracked: it holds the driver and the ref, not this call.
    const { driver } = this;
    this.options.tracker?.track(this.ctx.key, {
      fields: driver.describe(run),
      cancel: (signal) => driver.cancel(ref, signal),
    });
    const { message, outputs } = this.driver.progress(run, state);
    return running(message, this.requeueMs(state, seen.soon), outputs);
  }

  private async finish(state: State<Ref, Run>): Promise<ExecuteTemplateReply> {
    const outcome = this.driver.outcome(state.run);
    const report = await this.driver.finished(state.run, state);
    this.ctx.logger.info({ ...this.driver.describe(state.run), outcome }, `${this.noun} finished`);
    return this.conclude(state, outcome === 'succeeded' ? 'Succeeded' : 'Failed', report);
  }

  private async timeOut(state: State<Ref, Run>): Promise<ExecuteTemplateReply> {
    const cancelRequestedAt = this.now();
    let cancel: CancelResult<Run>;
    try {
      cancel = { after: await this.driver.cancel(state.ref, this.ctx.signal) };
    } catch (err) {
      if (isTransient(err)) throw this.lengthen(err); // the next call cancels again
      cancel = { error: err };
    }
    const { after } = cancel;
    const ended = after === undefined ? undefined : this.driver.outcome(after);
    // It ended on its own meanwhile (the cancel was refused as too late, or its reply says so): report how.
    if (after !== undefined && ended !== undefined && ended !== 'cancelled')
      return this.finish({ ...state, run: after });
    const report = this.driver.timedOut(state, cancel);
    this.ctx.logger.warn(
      { ...this.driver.describe(state.run), cancelled: cancel.error === undefined },
      `${this.noun} timed out`,
    );
    return this.conclude({ ...state, run: after ?? state.run, cancelRequestedAt }, 'Failed', report);
  }

  private async conclude(
    state: State<Ref, Run>,
    phase: 'Succeeded' | 'Failed',
    { message, outputs }: RunReport,
  ): Promise<ExecuteTemplateReply> {
    const final = phase === 'Succeeded' ? succeeded(outputs, message) : failed(message, outputs);
    await this.ctx.state.set({ ...state, final });
    this.options.tracker?.forget(this.ctx.key);
    return final;
  }

  /** The poll interval, at most `soonMs` when asked, never past the timeout (running() keeps it ≥ 1s). */
  private requeueMs(state: State<Ref, Run>, soon: boolean | undefined): number {
    const { pollIntervalMs, soonMs, timeoutMs } = this.options;
    const requeue = soon && soonMs !== undefined ? Math.min(pollIntervalMs, soonMs) : pollIntervalMs;
    if (timeoutMs === undefined) return requeue;
    return Math.min(requeue, state.startedAt + timeoutMs - this.now());
  }

  /** A poll whose transient failure waits at least one poll interval when `retryAtPollInterval` asks so. */
  private async upstream<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw this.lengthen(err);
    }
  }

  private lengthen(err: unknown): unknown {
    if (!this.options.retryAtPollInterval || !isTransient(err)) return err;
    return new UpstreamError('transient', err.message, {
      status: err.status,
      retryAfterMs: Math.max(err.retryAfterMs ?? 0, this.options.pollIntervalMs),
      cause: err.cause,
    });
  }
}

function observed<Ref, Run>(state: State<Ref, Run>, seen: RunObservation<Ref, Run>): State<Ref, Run> {
  const startedAt = Math.min(state.startedAt, seen.startedAt ?? state.startedAt);
  return { ...state, ref: seen.ref, run: seen.run, startedAt };
}

function isTransient(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && err.transient;
}
