import { Module, type DynamicModule } from '@nestjs/common';
import { provideHandler } from '@app/plugin-kit';
import { provideProviderBody } from '@app/plugin-kit/providers/provider-blocks.js';
import { provideProviderContexts } from '@app/plugin-kit/providers/provider-context.js';
import { loadProviderModules } from '@app/plugin-kit/providers/provider-table.js';
import { NotifierEnv } from './config/notifier.env.js';
import { NOTIFIER_PROVIDERS, NotifierHandler } from './notifier.handler.js';
import { notifyConfigClass } from './notify-config.dto.js';
import type { NotifierProvider } from './providers/notifier-provider.js';
import { PROVIDER_SETTINGS, PROVIDERS } from './providers/index.js';
import { approvalParts } from './approvals/approval-parts.js';

@Module({})
export class ChatNotifierModule {}

/**
 * The notifier's module: each provider (and what only it injects) with its context, the table of them, the
 * body class, the handler; and the entry `approve`: each provider's approval channels, the gate, its handler.
 */
export async function chatNotifierModule(): Promise<DynamicModule> {
  const providers = [...(await loadProviderModules(PROVIDERS)).entries()];
  const approvals = await approvalParts();
  return {
    module: ChatNotifierModule,
    providers: [
      ...provideProviderContexts(PROVIDER_SETTINGS.keys, NotifierEnv, (env, key) => env.contextOf(key)),
      ...providers.flatMap(([, p]) => [...(p.helpers ?? []), p.provider]),
      {
        provide: NOTIFIER_PROVIDERS,
        useFactory: (...instances: NotifierProvider[]) =>
          new Map(providers.map(([key], i) => [key, instances[i]!])),
        inject: providers.map(([, p]) => p.provider),
      },
      ...approvals,
      provideProviderBody(await notifyConfigClass()),
      NotifierHandler,
      provideHandler(NotifierHandler),
    ],
  };
}
