import { Module, type DynamicModule } from '@nestjs/common';
import { provideActiveRuns, provideHandler } from '@app/plugin-kit';
import { DataJobEnv } from './config/data-job.env.js';
import { DataJobHandler } from './data-job.handler.js';
import type { DataJobProviderModule } from './providers/data-job-provider.js';
import { PROVIDERS } from './providers/index.js';
import { PROVIDER_MODULES, ProviderRegistry } from './providers/provider-registry.js';

@Module({})
export class DataJobModule {}

let loading: Promise<Map<string, DataJobProviderModule<unknown>>> | undefined;

/** Every provider's Nest-free side, loaded once, one after the other (concurrent imports race under Jest's ESM loader). */
export function loadProviderModules(): Promise<Map<string, DataJobProviderModule<unknown>>> {
  loading ??= (async () => {
    const modules = new Map<string, DataJobProviderModule<unknown>>();
    for (const provider of PROVIDERS.providers) modules.set(provider.key, await provider.load());
    return modules;
  })();
  return loading;
}

/** The data-job runner's module: each provider's side, their registry, the runs' tracker, the handler. */
export async function dataJobModule(): Promise<DynamicModule> {
  return {
    module: DataJobModule,
    providers: [
      { provide: PROVIDER_MODULES, useValue: await loadProviderModules() },
      ProviderRegistry,
      provideActiveRuns(DataJobEnv, (env) => ({ cancelOnShutdown: env.CANCEL_ON_SHUTDOWN, budgetMs: 5000 })),
      DataJobHandler,
      provideHandler(DataJobHandler),
    ],
  };
}
