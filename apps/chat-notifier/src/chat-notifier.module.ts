import { Module, type DynamicModule } from '@nestjs/common';
import { provideHandler } from '@app/plugin-kit';
import { NOTIFIER_PROVIDERS, NOTIFY_CONFIG, NotifierHandler } from './notifier.handler.js';
import { notifyConfigClass } from './notify-config.dto.js';
import type { NotifierProvider } from './providers/notifier-provider.js';
import type { ProviderModule } from './providers/provider-definition.js';
import { PROVIDERS } from './providers/provider-table.js';
import { approvalParts } from './approvals/approvals.module-parts.js';

@Module({})
export class ChatNotifierModule {}

let loading: Promise<Array<ProviderModule & { key: string }>> | undefined;

/** The Nest side of every provider of the table, loaded once, all at the same time. */
export function loadProviderModules(): Promise<Array<ProviderModule & { key: string }>> {
  loading ??= Promise.all(
    PROVIDERS.map(async (provider) => ({ key: provider.key, ...(await provider.load()) })),
  );
  return loading;
}

/**
 * The notifier's module: each provider (and what only it injects), the table of them, the approval gate and its
 * readers, the body class, the handler.
 */
export async function chatNotifierModule(): Promise<DynamicModule> {
  const providers = await loadProviderModules();
  const approvals = await approvalParts();
  return {
    module: ChatNotifierModule,
    providers: [
      ...providers.flatMap((p) => [...(p.helpers ?? []), p.provider]),
      {
        provide: NOTIFIER_PROVIDERS,
        useFactory: (...instances: NotifierProvider[]) =>
          new Map(providers.map((p, i) => [p.key, instances[i]!])),
        inject: providers.map((p) => p.provider),
      },
      ...approvals.providers,
      { provide: NOTIFY_CONFIG, useValue: notifyConfigClass(providers, approvals.configClass) },
      NotifierHandler,
      provideHandler(NotifierHandler),
    ],
  };
}
