import { Injectable } from '@nestjs/common';
import { ActiveRuns, ProviderRunHandler, UpstreamProviders, type ConfigClass } from '@app/plugin-kit';
import { InjectProviderBody } from '@app/plugin-kit/providers/provider-blocks.js';
import { BuildDriver } from './build/build-driver.js';
import type { BuildProvider } from './build/build-provider.js';
import type { BuildRun } from './build/build-run.js';
import type { BuildConfig } from './dto/build-config.dto.js';

/** Requeue while a handle is being resolved (a GitHub run id being looked up, an expired Jenkins queue item). */
const SOON_MS = 5000;

/**
 * Triggers a CI build and follows it with the kit's remote-run lifecycle: found again or started on the first
 * call, one upstream poll per later call, cancelled upstream on timeout (or when the workflow is stopped: the
 * provider's own cancel, Jenkins stop, GitHub Actions or GitLab cancel), the final reply repeated.
 */
@Injectable()
export class BuildTriggerHandler extends ProviderRunHandler<BuildConfig, unknown, BuildRun, BuildProvider> {
  constructor(
    @InjectProviderBody() readonly configClass: ConfigClass<BuildConfig>,
    providers: UpstreamProviders<BuildProvider>,
    active: ActiveRuns,
  ) {
    super(providers, active, {
      upstream: (config) => config.server,
      driver: (ctx, picked) => new BuildDriver(ctx, picked),
      soonMs: SOON_MS,
      retryAtPollInterval: true,
      noun: 'build',
    });
  }
}
