import { Module } from '@nestjs/common';
import { provideHandler } from '@app/plugin-kit';
import { BuildTriggerHandler } from './build-trigger.handler.js';
import { ProviderRegistry } from './providers/provider-registry.js';
import { ActiveRuns } from './shutdown/active-runs.js';

@Module({
  providers: [ProviderRegistry, ActiveRuns, BuildTriggerHandler, provideHandler(BuildTriggerHandler)],
})
export class BuildTriggerModule {}
