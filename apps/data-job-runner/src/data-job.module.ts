import { Module, type DynamicModule } from '@nestjs/common';
import { provideActiveRuns, provideHandler, provideUpstreamProviders } from '@app/plugin-kit';
import { DataJobEnv } from './config/data-job.env.js';
import { DataJobHandler } from './data-job.handler.js';
import { PROVIDERS } from './providers/index.js';

@Module({})
export class DataJobModule {}

/** The data-job runner's module: its providers' clients, the runs' tracker, the handler. */
export async function dataJobModule(): Promise<DynamicModule> {
  return {
    module: DataJobModule,
    providers: [
      await provideUpstreamProviders(PROVIDERS, DataJobEnv),
      provideActiveRuns(DataJobEnv, (env) => ({ cancelOnShutdown: env.CANCEL_ON_SHUTDOWN, budgetMs: 5000 })),
      DataJobHandler,
      provideHandler(DataJobHandler),
    ],
  };
}
