import { Injectable } from '@nestjs/common';
import { parseDuration, type ExecuteTemplateReply } from '@app/contract';
import {
  ActiveRuns,
  cancelRemoteRun,
  executeRemoteRun,
  PluginConfigError,
  type ExecutionContext,
  type PluginHandler,
} from '@app/plugin-kit';
import { DataJobConfig, selectProvider } from './dto/data-job-config.dto.js';
import { DataJobDriver, type DataJobState } from './job/data-job-driver.js';
import { ProviderRegistry } from './providers/provider-registry.js';

/**
 * Starts a data job and follows it with the kit's remote-run lifecycle: one upstream poll per call until it
 * ends, cancelled upstream on timeout. With wait: false, a run that has already ended is reported as such.
 */
@Injectable()
export class DataJobHandler implements PluginHandler<DataJobConfig, DataJobState> {
  readonly configClass = DataJobConfig;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly active: ActiveRuns,
  ) {}

  execute(ctx: ExecutionContext<DataJobConfig, DataJobState>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    return executeRemoteRun(ctx, this.driver(ctx), {
      wait: config.wait,
      pollIntervalMs: parseDuration(config.pollInterval),
      timeoutMs: config.timeout === undefined ? undefined : parseDuration(config.timeout),
      reportEndedWhenNotWaiting: true,
      tracker: this.active,
    });
  }

  /** The workflow was stopped: the provider's own cancel of the run this execution began. */
  cancel(ctx: ExecutionContext<DataJobConfig, DataJobState>): Promise<boolean> {
    return cancelRemoteRun(ctx, this.driver(ctx), { tracker: this.active });
  }

  private driver(ctx: ExecutionContext<DataJobConfig, DataJobState>): DataJobDriver {
    const { config } = ctx;
    const selection = selectProvider(config);
    if (!selection.ok) throw new PluginConfigError(selection.problems.join('; '));
    const { provider: name, block } = selection.selected;
    return new DataJobDriver(
      ctx,
      name,
      block,
      this.registry.get(name, config.connection, ctx.workflow.namespace),
    );
  }
}
