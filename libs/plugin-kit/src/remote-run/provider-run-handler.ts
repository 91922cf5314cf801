import { parseDuration, type ExecuteTemplateReply } from '@app/contract';
import type { ConfigClass, ExecutionContext, PluginHandler } from '../execution/plugin-handler.js';
import type { PickedProvider, UpstreamProviders } from '../providers/upstream-providers.js';
import type { ActiveRuns } from './active-runs.js';
import type { RemoteRunDriver, RemoteRunState } from './remote-run-driver.js';
import { cancelRemoteRun, executeRemoteRun, type RemoteRunOptions } from './remote-run.js';

/** The fields of a body that say how to wait for the run. */
export interface RemoteRunBody {
  wait: boolean;
  pollInterval: string;
  timeout?: string;
}

/** The lifecycle's options that are the plugin's own, not the body's. */
export type ProviderRunOptions = Pick<
  RemoteRunOptions,
  'soonMs' | 'retryAtPollInterval' | 'reportEndedWhenNotWaiting' | 'noun'
>;

/**
 * A plugin whose body names one provider block and one of its upstreams, and whose work is a remote run
 * followed with the kit's lifecycle: the block and the upstream's client are picked on every call, the
 * plugin's driver (one per call, `driverFor`) does the provider's part and words the replies.
 */
export abstract class ProviderRunHandler<
  Config extends RemoteRunBody,
  Ref,
  Run,
  Client,
> implements PluginHandler<Config, RemoteRunState<Ref, Run>> {
  abstract readonly configClass: ConfigClass<Config>;

  protected constructor(
    private readonly providers: UpstreamProviders<Client>,
    private readonly active: ActiveRuns,
    private readonly options: ProviderRunOptions = {},
  ) {}

  execute(ctx: ExecutionContext<Config, RemoteRunState<Ref, Run>>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    return executeRemoteRun(ctx, this.driver(ctx), {
      ...this.options,
      wait: config.wait,
      pollIntervalMs: parseDuration(config.pollInterval),
      timeoutMs: config.timeout === undefined ? undefined : parseDuration(config.timeout),
      tracker: this.active,
    });
  }

  /** The workflow was stopped: the provider's own cancel of the run this execution began. */
  cancel(ctx: ExecutionContext<Config, RemoteRunState<Ref, Run>>): Promise<boolean> {
    return cancelRemoteRun(ctx, this.driver(ctx), { noun: this.options.noun, tracker: this.active });
  }

  /** The upstream the body names (`server`, `connection`); undefined: the default one. */
  protected abstract upstreamOf(config: Config): string | undefined;

  protected abstract driverFor(
    ctx: ExecutionContext<Config, RemoteRunState<Ref, Run>>,
    picked: PickedProvider<Client>,
  ): RemoteRunDriver<Ref, Run>;

  private driver(ctx: ExecutionContext<Config, RemoteRunState<Ref, Run>>): RemoteRunDriver<Ref, Run> {
    const picked = this.providers.pick(ctx.config, this.upstreamOf(ctx.config), ctx.workflow.namespace);
    return this.driverFor(ctx, picked);
  }
}
