import { Module, type DynamicModule } from '@nestjs/common';
import { provideHandler } from '@app/plugin-kit';
import { provideProviderContexts } from '@app/plugin-kit/providers/provider-context.js';
import { NotifierEnv } from './config/notifier.env.js';
import { NOTIFIER_PROVIDERS, NOTIFY_CONFIG, NotifierHandler } from './notifier.handler.js';
import { notifyConfigClass } from './notify-config.dto.js';
import type { NotifierProvider, ProviderModule } from './providers/notifier-provider.js';
import { PROVIDER_SETTINGS, PROVIDERS } from './providers/index.js';
import { approvalParts } from './approvals/approval-parts.js';

@Module({})
export class ChatNotifierModule {}

let loading: Promise<Array<ProviderModule & { key: string }>> | undefined;

/** The Nest side of every provider of the table, loaded once, all at the same time. */
export function loadProviderModules(): Promise<Array<ProviderModule & { key: string }>> {
  loading ??= Promise.all(
    PROVIDERS.providers.map(async (provider) => ({ key: provider.key, ...(await provider.load()) })),
  );
  return loading;
}

/**
 * The notifier's module: each provider (and what only it injects) with its context, the table of them, the
 * body class, the handler; and the entry `approve`: each provider's approval channels, the gate, its handler.
 */
export async function chatNotifierModule(): Promise<DynamicModule> {
  const providers = await loadProviderModules();
  const approvals = await approvalParts();
  return {
    module: ChatNotifierModule,
    providers: [
      ...provideProviderContexts(PROVIDER_SETTINGS.keys, NotifierEnv, (env, key) => env.contextOf(key)),
      ...providers.flatMap((p) => [...(p.helpers ?? []), p.provider]),
      {
        provide: NOTIFIER_PROVIDERS,
        useFactory: (...instances: NotifierProvider[]) =>
          new Map(providers.map((p, i) => [p.key, instances[i]!])),
        inject: providers.map((p) => p.provider),
      },
      ...approvals,
      { provide: NOTIFY_CONFIG, useValue: notifyConfigClass(providers) },
      NotifierHandler,
      provideHandler(NotifierHandler),
    ],
  };
}
