import { Injectable } from '@nestjs/common';
import { parseDuration, type ExecuteTemplateReply } from '@app/contract';
import {
  failed,
  PluginConfigError,
  running,
  succeeded,
  UpstreamError,
  type ExecutionContext,
  type PluginHandler,
} from '@app/plugin-kit';
import { DataJobConfig, selectProvider } from './dto/data-job-config.dto.js';
import { lastKnownRun, withRun, type DataJobState } from './job/data-job-state.js';
import { runMessage, runOutputs, timeoutMessage } from './job/job-report.js';
import { isTerminal, type JobRun, type RunExtras } from './job/job-run.js';
import type { DataJobProvider, PollRequest } from './providers/data-job-provider.js';
import { ProviderRegistry } from './providers/provider-registry.js';
import type { ProviderName } from './providers/provider-names.js';
import { ActiveRuns } from './shutdown/active-runs.js';

type Ctx = ExecutionContext<DataJobConfig, DataJobState>;

interface Call {
  ctx: Ctx;
  name: ProviderName;
  block: unknown;
  provider: DataJobProvider<unknown>;
}

/**
 * Starts a data job on the first call, then polls it once per call (one upstream request) until it ends.
 * The first call of an execution, and the first after a sidecar restart, goes through `start`, which the
 * providers make idempotent with the upstream's own key, so repeated, concurrent and post-restart calls lead to
 * exactly one run.
 */
@Injectable()
export class DataJobHandler implements PluginHandler<DataJobConfig, DataJobState> {
  readonly configClass = DataJobConfig;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly active: ActiveRuns,
  ) {}

  async execute(ctx: Ctx): Promise<ExecuteTemplateReply> {
    const selection = selectProvider(ctx.config);
    if (!selection.ok) throw new PluginConfigError(selection.problems.join('; '));
    const { provider: name, block } = selection.selected;
    const call: Call = { ctx, name, block, provider: this.registry.get(name, ctx.config.connection) };

    const state = ctx.state.get();
    if (state?.final) return state.final;
    if (!state) return this.start(call);
    if (this.timedOut(ctx, state)) return this.cancelForTimeout(call, state);
    const run = await call.provider.poll(this.pollRequest(call, state));
    return this.report(call, state, run);
  }

  private async start(call: Call): Promise<ExecuteTemplateReply> {
    const { ctx, name, block, provider } = call;
    let run = await provider.start({
      block,
      key: ctx.key,
      workflow: ctx.workflow,
      signal: ctx.signal,
      logger: ctx.logger,
    });
    let state: DataJobState = withRun(
      {
        provider: name,
        ref: run.ref,
        startedAt: Date.now(),
        lastState: run.state,
        lastUpstreamState: run.upstreamState,
      },
      run,
    );
    await ctx.state.set(state);
    ctx.logger.info(
      { provider: name, runId: run.ref.runId, upstreamState: run.upstreamState, url: run.url },
      'run started (or adopted)',
    );
    if (run.provisional) {
      run = await provider.poll(this.pollRequest(call, state));
      state = withRun(state, run);
    }
    return this.report(call, state, run);
  }

  private async report(call: Call, previous: DataJobState, run: JobRun): Promise<ExecuteTemplateReply> {
    const { ctx, name } = call;
    const now = Date.now();
    if (run.unknownState)
      ctx.logger.warn(
        { provider: name, upstreamState: run.upstreamState },
        'unknown upstream state: still polling',
      );
    if (previous.cancelRequestedAt !== undefined && run.state === 'failed')
      run = { ...run, state: 'cancelled' };
    let state = withRun(previous, run);

    // wait: false succeeds once the run is started; a run that has already ended (found again after a
    // restart, or over at once) is reported as what it is.
    if (!ctx.config.wait && !isTerminal(run.state)) {
      this.active.forget(ctx.key);
      const input = { provider: name, run, startedAt: state.startedAt, now };
      return succeeded(runOutputs(input), runMessage(input, 'started'));
    }

    if (!isTerminal(run.state)) {
      await ctx.state.set(state);
      this.active.track(ctx.key, name, run.ref, call.provider);
      const input = { provider: name, run, startedAt: state.startedAt, now };
      return running(runMessage(input, 'progress'), this.requeueMs(ctx, state, now), runOutputs(input));
    }

    const extras = await this.finish(call, state, run);
    const input = { provider: name, run, startedAt: state.startedAt, now, extras };
    const reply =
      run.state === 'succeeded'
        ? succeeded(runOutputs(input), runMessage(input, 'final'))
        : failed(runMessage(input, 'final'), runOutputs(input));
    state = { ...state, final: reply };
    await ctx.state.set(state);
    this.active.forget(ctx.key);
    ctx.logger.info(
      { provider: name, runId: run.ref.runId, state: run.state, upstreamState: run.upstreamState },
      'run finished',
    );
    return reply;
  }

  /** Extras are a nicety: a permanent failure to fetch them does not change the run's result. */
  private async finish(call: Call, state: DataJobState, run: JobRun): Promise<RunExtras | undefined> {
    if (!call.provider.finish) return undefined;
    try {
      return await call.provider.finish(run, this.pollRequest(call, state));
    } catch (err) {
      if (err instanceof UpstreamError && err.transient) throw err;
      call.ctx.logger.warn(
        { provider: call.name, runId: run.ref.runId },
        `could not fetch run extras: ${(err as Error).message}`,
      );
      return undefined;
    }
  }

  private timedOut(ctx: Ctx, state: DataJobState): boolean {
    const { timeout } = ctx.config;
    return (
      timeout !== undefined &&
      state.cancelRequestedAt === undefined &&
      Date.now() - state.startedAt >= parseDuration(timeout)
    );
  }

  private async cancelForTimeout(call: Call, state: DataJobState): Promise<ExecuteTemplateReply> {
    const { ctx, name, provider } = call;
    await provider.cancel(state.ref, ctx.signal);
    const run: JobRun = { ...lastKnownRun(state), state: 'cancelled' };
    const input = { provider: name, run, startedAt: state.startedAt, now: Date.now() };
    const reply = failed(timeoutMessage(name, lastKnownRun(state), ctx.config.timeout!), runOutputs(input));
    await ctx.state.set({ ...state, cancelRequestedAt: Date.now(), lastState: 'cancelled', final: reply });
    this.active.forget(ctx.key);
    ctx.logger.warn(
      { provider: name, runId: state.ref.runId, timeout: ctx.config.timeout },
      'run timed out: cancelled',
    );
    return reply;
  }

  /** The poll interval, shortened so the call after the timeout comes on time. */
  private requeueMs(ctx: Ctx, state: DataJobState, now: number): number {
    const poll = parseDuration(ctx.config.pollInterval);
    if (ctx.config.timeout === undefined) return poll;
    const left = state.startedAt + parseDuration(ctx.config.timeout) - now;
    return Math.max(1000, Math.min(poll, left));
  }

  private pollRequest(call: Call, state: DataJobState): PollRequest<unknown> {
    return {
      ref: state.ref,
      block: call.block,
      signal: call.ctx.signal,
      cancelRequested: state.cancelRequestedAt !== undefined,
    };
  }
}
