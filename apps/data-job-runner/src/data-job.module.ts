import { Module, type DynamicModule } from '@nestjs/common';
import { provideActiveRuns, provideHandler, provideUpstreamProviders } from '@app/plugin-kit';
import { provideProviderBody } from '@app/plugin-kit/providers/provider-blocks.js';
import { DataJobEnv } from './config/data-job.env.js';
import { dataJobConfigClass } from './dto/data-job-config.dto.js';
import { DataJobHandler } from './data-job.handler.js';
import { PROVIDERS } from './providers/index.js';

@Module({})
export class DataJobModule {}

/** The data-job runner's module: its providers' clients, the body class, the runs' tracker, the handler. */
export async function dataJobModule(): Promise<DynamicModule> {
  return {
    module: DataJobModule,
    providers: [
      await provideUpstreamProviders(PROVIDERS, DataJobEnv),
      provideProviderBody(await dataJobConfigClass()),
      provideActiveRuns(DataJobEnv, (env) => ({ cancelOnShutdown: env.CANCEL_ON_SHUTDOWN, budgetMs: 5000 })),
      DataJobHandler,
      provideHandler(DataJobHandler),
    ],
  };
}
