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

/** What a plugin gives the handler: the upstream its body names, its driver, its own lifecycle options. */
export interface ProviderRun<Config extends object, Ref, Run, Client> extends Pick<
  RemoteRunOptions,
  'soonMs' | 'retryAtPollInterval' | 'reportEndedWhenNotWaiting' | 'noun'
> {
  /** The upstream the body names (`server`, `connection`); undefined: the default one. */
  upstream(config: Config): string | undefined;
  /** The driver of one call: the provider's part of the run, and the words of the replies. */
  driver(
    ctx: ExecutionContext<Config, RemoteRunState<Ref, Run>>,
    picked: PickedProvider<Client>,
  ): RemoteRunDriver<Ref, Run>;
}

/**
 * A plugin whose body names one provider block and one of its upstreams, and whose work is a remote run
 * followed with the kit's lifecycle: the block and the upstream's client are picked on every call, the
 * plugin's driver (one per call) does the provider's part and words the replies.
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
    private readonly plugin: ProviderRun<Config, Ref, Run, Client>,
  ) {}

  execute(ctx: ExecutionContext<Config, RemoteRunState<Ref, Run>>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const { soonMs, retryAtPollInterval, reportEndedWhenNotWaiting, noun } = this.plugin;
    return executeRemoteRun(ctx, this.driver(ctx), {
      soonMs,
      retryAtPollInterval,
      reportEndedWhenNotWaiting,
      noun,
      wait: config.wait,
      pollIntervalMs: parseDuration(config.pollInterval),
      timeoutMs: config.timeout === undefined ? undefined : parseDuration(config.timeout),
      tracker: this.active,
    });
  }

  /** The workflow was stopped: the provider's own cancel of the run this execution began. */
  cancel(ctx: ExecutionContext<Config, RemoteRunState<Ref, Run>>): Promise<boolean> {
    return cancelRemoteRun(ctx, this.driver(ctx), { noun: this.plugin.noun, tracker: this.active });
  }

  private driver(ctx: ExecutionContext<Config, RemoteRunState<Ref, Run>>): RemoteRunDriver<Ref, Run> {
    const picked = this.providers.pick(ctx.config, this.plugin.upstream(ctx.config), ctx.workflow.namespace);
    return this.plugin.driver(ctx, picked);
  }
}
