import { Module } from '@nestjs/common';
import { provideActiveRuns, provideHandler } from '@app/plugin-kit';
import { DataJobEnv } from './config/data-job.env.js';
import { DataJobHandler } from './data-job.handler.js';
import { ProviderRegistry } from './providers/provider-registry.js';

@Module({
  providers: [
    ProviderRegistry,
    provideActiveRuns(DataJobEnv, (env) => ({ cancelOnShutdown: env.CANCEL_ON_SHUTDOWN, budgetMs: 5000 })),
    DataJobHandler,
    provideHandler(DataJobHandler),
  ],
})
export class DataJobModule {}
