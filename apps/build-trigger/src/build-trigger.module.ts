import { Module } from '@nestjs/common';
import { provideActiveRuns, provideHandler } from '@app/plugin-kit';
import { BuildTriggerHandler } from './build-trigger.handler.js';
import { BuildTriggerEnv } from './config/build-trigger.env.js';
import { ProviderRegistry } from './providers/provider-registry.js';

@Module({
  providers: [
    ProviderRegistry,
    provideActiveRuns(BuildTriggerEnv, (env) => ({
      cancelOnShutdown: env.CANCEL_ON_SHUTDOWN,
      noun: 'build',
    })),
    BuildTriggerHandler,
    provideHandler(BuildTriggerHandler),
  ],
})
export class BuildTriggerModule {}
