import { Injectable } from '@nestjs/common';
import { parseDuration, type ExecuteTemplateReply } from '@app/contract';
import {
  failed,
  running,
  succeeded,
  UpstreamError,
  type ExecutionContext,
  type PluginHandler,
} from '@app/plugin-kit';
import {
  buildOutputs,
  finishedMessage,
  progressMessage,
  startedMessage,
  timedOutMessage,
} from './build/build-messages.js';
import type { BuildProvider, BuildRequest, Tracked } from './build/build-provider.js';
import { isTerminal, type BuildRun } from './build/build-run.js';
import type { BuildState } from './build/build-state.js';
import { correlationKey } from './build/correlation-key.js';
import { BuildConfig } from './dto/build-config.dto.js';
import { chooseProvider } from './dto/provider-block.js';
import { ProviderRegistry } from './providers/provider-registry.js';
import { ActiveRuns } from './shutdown/active-runs.js';

type Ctx = ExecutionContext<BuildConfig, BuildState>;

/** Requeue while a handle is being resolved (a GitHub run id being looked up, an expired Jenkins queue item). */
const SOON_MS = 5000;

/**
 * The build state machine. First call: find a build an earlier process started for this execution, else
 * start one; reply Running (or Succeeded right away with wait: false). Later calls: exactly one upstream
 * poll each, until the build ends (Succeeded/Failed naming the upstream result and linking the run) or the
 * timeout passes (cancel upstream, Failed). A final outcome is kept and repeated on later identical calls.
 */
@Injectable()
export class BuildTriggerHandler implements PluginHandler<BuildConfig, BuildState> {
  readonly configClass = BuildConfig;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly active: ActiveRuns,
  ) {}

  async execute(ctx: Ctx): Promise<ExecuteTemplateReply> {
    const chosen = chooseProvider(ctx.config);
    const provider = this.registry.get(chosen.provider, ctx.config.server);
    const request: BuildRequest = {
      provider: chosen.provider,
      spec: chosen.spec,
      correlationKey: correlationKey(ctx.key),
      unstableIsSuccess: ctx.config.unstableIsSuccess,
      wait: ctx.config.wait,
      logger: ctx.logger,
    };
    const state = ctx.state.get();
    if (state?.final) return this.repeat(state);
    if (!state) return this.begin(ctx, provider, request);
    return this.follow(ctx, provider, request, state);
  }

  private async begin(
    ctx: Ctx,
    provider: BuildProvider,
    request: BuildRequest,
  ): Promise<ExecuteTemplateReply> {
    const found = await provider.find(request);
    const tracked = found ?? (await provider.start(request));
    const now = Date.now();
    const startedAt = found ? Math.min(tracked.run.startedAt ?? now, now) : now;
    const state: BuildState = { provider: provider.name, startedAt, ref: tracked.ref, run: tracked.run };
    await ctx.state.set(state);
    ctx.logger.info(
      {
        provider: provider.name,
        build: tracked.run.label,
        id: tracked.run.id,
        url: tracked.run.url,
        correlationKey: request.correlationKey,
      },
      found ? 'found the build an earlier call started' : 'build started',
    );
    if (!ctx.config.wait)
      return this.conclude(ctx, state, 'Succeeded', startedMessage(tracked.run, found !== undefined));
    if (isTerminal(tracked.run.status)) return this.complete(ctx, state, tracked.run);
    this.track(ctx, provider, request, state);
    return this.progress(ctx, state, tracked);
  }

  private async follow(
    ctx: Ctx,
    provider: BuildProvider,
    request: BuildRequest,
    state: BuildState,
  ): Promise<ExecuteTemplateReply> {
    const timeoutMs = ctx.config.timeout === undefined ? undefined : parseDuration(ctx.config.timeout);
    if (timeoutMs !== undefined && Date.now() - state.startedAt >= timeoutMs)
      return this.timeOut(ctx, provider, request, state);
    let observed: Tracked;
    try {
      observed = await provider.poll(request, state.ref);
    } catch (err) {
      throw this.lengthen(err, ctx);
    }
    const next: BuildState = { ...state, ref: observed.ref, run: observed.run };
    if (isTerminal(observed.run.status)) return this.complete(ctx, next, observed.run);
    await ctx.state.set(next);
    this.track(ctx, provider, request, next);
    return this.progress(ctx, next, observed);
  }

  private async timeOut(
    ctx: Ctx,
    provider: BuildProvider,
    request: BuildRequest,
    state: BuildState,
  ): Promise<ExecuteTemplateReply> {
    let after: BuildRun | undefined;
    let problem: string | undefined;
    try {
      after = await provider.cancel(request, state.ref);
    } catch (err) {
      if (err instanceof UpstreamError && err.transient) throw this.lengthen(err, ctx); // try the cancel again
      problem = (err as Error).message;
    }
    // It ended on its own meanwhile (GitHub 409, a GitLab cancel reply): report how.
    if (after && isTerminal(after.status) && after.status !== 'cancelled')
      return this.complete(ctx, state, after);
    const run: BuildRun = {
      ...state.run,
      ...after,
      status: 'cancelled',
      result: after?.result || state.run.result,
    };
    const message =
      timedOutMessage(run, ctx.config.timeout!, problem === undefined) + (problem ? `: ${problem}` : '');
    ctx.logger.warn(
      { provider: run.provider, build: run.label, url: run.url, cancelled: problem === undefined },
      'build timed out',
    );
    return this.conclude(ctx, { ...state, run }, 'Failed', message);
  }

  private complete(ctx: Ctx, state: BuildState, run: BuildRun): Promise<ExecuteTemplateReply> {
    const unstable = run.provider === 'jenkins' && run.result === 'UNSTABLE' && run.status === 'failed';
    const note = unstable
      ? 'UNSTABLE counts as a failure; set unstableIsSuccess: true to accept it'
      : undefined;
    ctx.logger.info(
      { provider: run.provider, build: run.label, status: run.status, result: run.result, url: run.url },
      'build finished',
    );
    return this.conclude(
      ctx,
      { ...state, run },
      run.status === 'succeeded' ? 'Succeeded' : 'Failed',
      finishedMessage(run, note),
    );
  }

  private async conclude(
    ctx: Ctx,
    state: BuildState,
    phase: 'Succeeded' | 'Failed',
    message: string,
  ): Promise<ExecuteTemplateReply> {
    const final: BuildState = { ...state, final: { phase, message } };
    await ctx.state.set(final);
    this.active.forget(ctx.key);
    return this.repeat(final);
  }

  private repeat(state: BuildState): ExecuteTemplateReply {
    const { phase, message } = state.final!;
    return phase === 'Succeeded'
      ? succeeded(buildOutputs(state.run), message)
      : failed(message, buildOutputs(state.run));
  }

  private progress(ctx: Ctx, state: BuildState, observed: Tracked): ExecuteTemplateReply {
    const interval = parseDuration(ctx.config.pollInterval);
    let requeue = observed.soon ? Math.min(interval, SOON_MS) : interval;
    if (ctx.config.timeout !== undefined) {
      const left = state.startedAt + parseDuration(ctx.config.timeout) - Date.now();
      requeue = Math.min(requeue, Math.max(left, 1000));
    }
    return running(progressMessage(state.run), requeue, buildOutputs(state.run));
  }

  /** A transient poll failure waits at least one poll interval (longer when the upstream says so, and the kit backs off). */
  private lengthen(err: unknown, ctx: Ctx): unknown {
    if (!(err instanceof UpstreamError) || !err.transient) return err;
    const interval = parseDuration(ctx.config.pollInterval);
    return new UpstreamError('transient', err.message, {
      status: err.status,
      retryAfterMs: Math.max(err.retryAfterMs ?? 0, interval),
      cause: err.cause,
    });
  }

  private track(ctx: Ctx, provider: BuildProvider, request: BuildRequest, state: BuildState): void {
    this.active.track(ctx.key, {
      label: state.run.label,
      url: state.run.url,
      cancel: () => provider.cancel(request, state.ref),
    });
  }
}
