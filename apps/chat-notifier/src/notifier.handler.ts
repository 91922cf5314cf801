import { Inject, Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import {
  PluginConfigError,
  type ConfigClass,
  type ExecutionContext,
  type PluginHandler,
} from '@app/plugin-kit';
import { InjectProviderBody } from '@app/plugin-kit/providers/provider-blocks.js';
import type { NotifierProvider } from './providers/notifier-provider.js';
import { PROVIDERS } from './providers/index.js';
import { inBlock } from './shared/block-errors.js';

/** The providers by key, in the order of the table: what the handler dispatches to. */
export const NOTIFIER_PROVIDERS = Symbol.for('chat-notifier.providers');
export type NotifierProviders = ReadonlyMap<string, NotifierProvider>;

/**
 * Hands the body's one provider block to that provider; config errors name the field from the body's root. An
 * approval gate is the plugin's entry `approve` (ApproveHandler), not a block of `notify`.
 */
@Injectable()
export class NotifierHandler implements PluginHandler<Record<string, object>> {
  constructor(
    @Inject(NOTIFIER_PROVIDERS) private readonly providers: NotifierProviders,
    @InjectProviderBody() readonly configClass: ConfigClass<Record<string, object>>,
  ) {}

  async execute(ctx: ExecutionContext<Record<string, object>>): Promise<ExecuteTemplateReply> {
    if (ctx.config.approve !== undefined)
      throw new PluginConfigError(
        'approve: is a key of its own (plugin: {approve: {...}}), not a block of notify',
      );
    const name = PROVIDERS.pick(ctx.config);
    // `channel: …` from the Slack block is `slack.channel: …` from the body's root.
    return inBlock(name, () => this.providers.get(name)!.execute({ ...ctx, config: ctx.config[name]! }));
  }
}
