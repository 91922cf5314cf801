import { Module } from '@nestjs/common';
import { provideHandler } from '@app/plugin-kit';
import { DataJobHandler } from './data-job.handler.js';
import { ProviderRegistry } from './providers/provider-registry.js';
import { ActiveRuns } from './shutdown/active-runs.js';

@Module({ providers: [ProviderRegistry, ActiveRuns, DataJobHandler, provideHandler(DataJobHandler)] })
export class DataJobModule {}
