import { Module, type DynamicModule } from '@nestjs/common';
import { provideActiveRuns, provideHandler, provideUpstreamProviders } from '@app/plugin-kit';
import { provideProviderBody } from '@app/plugin-kit/providers/provider-blocks.js';
import { BuildTriggerHandler } from './build-trigger.handler.js';
import { BuildTriggerEnv } from './config/build-trigger.env.js';
import { buildConfigClass } from './dto/build-config.dto.js';
import { PROVIDERS } from './providers/index.js';

@Module({})
export class BuildTriggerModule {}

/** The build trigger's module: its CI systems' clients, the body class, the builds' tracker, the handler. */
export async function buildTriggerModule(): Promise<DynamicModule> {
  return {
    module: BuildTriggerModule,
    providers: [
      await provideUpstreamProviders(PROVIDERS, BuildTriggerEnv),
      provideProviderBody(await buildConfigClass()),
      provideActiveRuns(BuildTriggerEnv, (env) => ({
        cancelOnShutdown: env.CANCEL_ON_SHUTDOWN,
        noun: 'build',
      })),
      BuildTriggerHandler,
      provideHandler(BuildTriggerHandler),
    ],
  };
}
