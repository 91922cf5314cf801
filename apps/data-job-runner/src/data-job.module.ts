import { Module, type DynamicModule } from '@nestjs/common';
import { loadProviderModules, provideActiveRuns, provideHandler } from '@app/plugin-kit';
import { DataJobEnv } from './config/data-job.env.js';
import { DataJobHandler } from './data-job.handler.js';
import { PROVIDERS } from './providers/index.js';
import { PROVIDER_MODULES, ProviderRegistry } from './providers/provider-registry.js';

@Module({})
export class DataJobModule {}

/** The data-job runner's module: each provider's side, their registry, the runs' tracker, the handler. */
export async function dataJobModule(): Promise<DynamicModule> {
  return {
    module: DataJobModule,
    providers: [
      { provide: PROVIDER_MODULES, useValue: await loadProviderModules(PROVIDERS) },
      ProviderRegistry,
      provideActiveRuns(DataJobEnv, (env) => ({ cancelOnShutdown: env.CANCEL_ON_SHUTDOWN, budgetMs: 5000 })),
      DataJobHandler,
      provideHandler(DataJobHandler),
    ],
  };
}
