import { Module, type DynamicModule } from '@nestjs/common';
import { loadProviderModules, provideActiveRuns, provideHandler } from '@app/plugin-kit';
import { BuildTriggerHandler } from './build-trigger.handler.js';
import { BuildTriggerEnv } from './config/build-trigger.env.js';
import { PROVIDERS } from './providers/index.js';
import { PROVIDER_MODULES, ProviderRegistry } from './providers/provider-registry.js';

@Module({})
export class BuildTriggerModule {}

/** The build trigger's module: each CI system's side, their registry, the builds' tracker, the handler. */
export async function buildTriggerModule(): Promise<DynamicModule> {
  return {
    module: BuildTriggerModule,
    providers: [
      { provide: PROVIDER_MODULES, useValue: await loadProviderModules(PROVIDERS) },
      ProviderRegistry,
      provideActiveRuns(BuildTriggerEnv, (env) => ({
        cancelOnShutdown: env.CANCEL_ON_SHUTDOWN,
        noun: 'build',
      })),
      BuildTriggerHandler,
      provideHandler(BuildTriggerHandler),
    ],
  };
}
