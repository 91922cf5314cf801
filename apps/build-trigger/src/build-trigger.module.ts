import { Module, type DynamicModule } from '@nestjs/common';
import { provideActiveRuns, provideHandler, provideUpstreamProviders } from '@app/plugin-kit';
import { BuildTriggerHandler } from './build-trigger.handler.js';
import { BuildTriggerEnv } from './config/build-trigger.env.js';
import { PROVIDERS } from './providers/index.js';

@Module({})
export class BuildTriggerModule {}

/** The build trigger's module: its CI systems' clients, the builds' tracker, the handler. */
export async function buildTriggerModule(): Promise<DynamicModule> {
  return {
    module: BuildTriggerModule,
    providers: [
      await provideUpstreamProviders(PROVIDERS, BuildTriggerEnv),
      provideActiveRuns(BuildTriggerEnv, (env) => ({
        cancelOnShutdown: env.CANCEL_ON_SHUTDOWN,
        noun: 'build',
      })),
      BuildTriggerHandler,
      provideHandler(BuildTriggerHandler),
    ],
  };
}
