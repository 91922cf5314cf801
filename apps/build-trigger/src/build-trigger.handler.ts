import { Injectable } from '@nestjs/common';
import { parseDuration, type ExecuteTemplateReply } from '@app/contract';
import {
  ActiveRuns,
  cancelRemoteRun,
  executeRemoteRun,
  type ExecutionContext,
  type PluginHandler,
  type RemoteRunState,
} from '@app/plugin-kit';
import { buildDriver } from './build/build-driver.js';
import type { BuildRun } from './build/build-run.js';
import { correlationKey } from './build/correlation-key.js';
import { BuildConfig } from './dto/build-config.dto.js';
import { chooseProvider } from './dto/provider-block.js';
import { ProviderRegistry } from './providers/provider-registry.js';

/** The provider's handle (queue id / build number, run id, pipeline id) and the last observed build. */
export type BuildState = RemoteRunState<unknown, BuildRun>;

/** Requeue while a handle is being resolved (a GitHub run id being looked up, an expired Jenkins queue item). */
const SOON_MS = 5000;

/**
 * Triggers a CI build and follows it with the kit's remote-run lifecycle: found again or started on the first
 * call, one upstream poll per later call, cancelled upstream on timeout, the final reply repeated.
 */
@Injectable()
export class BuildTriggerHandler implements PluginHandler<BuildConfig, BuildState> {
  readonly configClass = BuildConfig;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly active: ActiveRuns,
  ) {}

  execute(ctx: ExecutionContext<BuildConfig, BuildState>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    return executeRemoteRun(ctx, this.driver(ctx), {
      wait: config.wait,
      pollIntervalMs: parseDuration(config.pollInterval),
      timeoutMs: config.timeout === undefined ? undefined : parseDuration(config.timeout),
      soonMs: SOON_MS,
      retryAtPollInterval: true,
      noun: 'build',
      tracker: this.active,
    });
  }

  /** The workflow was stopped: the provider's own cancel (Jenkins stop, GitHub Actions or GitLab cancel). */
  cancel(ctx: ExecutionContext<BuildConfig, BuildState>): Promise<boolean> {
    return cancelRemoteRun(ctx, this.driver(ctx), { noun: 'build', tracker: this.active });
  }

  private driver(ctx: ExecutionContext<BuildConfig, BuildState>): ReturnType<typeof buildDriver> {
    const { config } = ctx;
    const chosen = chooseProvider(config);
    const provider = this.registry.get(chosen.provider, config.server, ctx.workflow.namespace);
    return buildDriver(
      provider,
      {
        provider: chosen.provider,
        spec: chosen.spec,
        correlationKey: correlationKey(ctx.key),
        unstableIsSuccess: config.unstableIsSuccess,
        wait: config.wait,
        logger: ctx.logger,
      },
      config.timeout,
    );
  }
}
