import { Injectable } from '@nestjs/common';
import { ActiveRuns, ProviderRunHandler, UpstreamProviders, type ConfigClass } from '@app/plugin-kit';
import { InjectProviderBody } from '@app/plugin-kit/providers/provider-blocks.js';
import type { DataJobConfig } from './dto/data-job-config.dto.js';
import { DataJobDriver } from './job/data-job-driver.js';
import type { JobRun, RunRef } from './job/job-run.js';
import type { DataJobProvider } from './providers/data-job-provider.js';

/**
 * Starts a data job and follows it with the kit's remote-run lifecycle: one upstream poll per call until it
 * ends, cancelled upstream on timeout. With wait: false, a run that has already ended is reported as such.
 */
@Injectable()
export class DataJobHandler extends ProviderRunHandler<
  DataJobConfig,
  RunRef,
  JobRun,
  DataJobProvider<unknown>
> {
  constructor(
    @InjectProviderBody() readonly configClass: ConfigClass<DataJobConfig>,
    providers: UpstreamProviders<DataJobProvider<unknown>>,
    active: ActiveRuns,
  ) {
    super(providers, active, {
      upstream: (config) => config.connection,
      driver: (ctx, picked) => new DataJobDriver(ctx, picked),
      reportEndedWhenNotWaiting: true,
    });
  }
}
