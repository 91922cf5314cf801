import { Inject, Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import {
  exactlyOneProviderBlock,
  PluginConfigError,
  type ConfigClass,
  type ExecutionContext,
  type PluginHandler,
} from '@app/plugin-kit';
import type { NotifierProvider } from './providers/notifier-provider.js';

/** The providers by key, in the order of the table: what the handler dispatches to. */
export const NOTIFIER_PROVIDERS = Symbol.for('chat-notifier.providers');
export type NotifierProviders = ReadonlyMap<string, NotifierProvider>;

/** The class of the `notify` body, made from the providers' body classes. */
export const NOTIFY_CONFIG = Symbol.for('chat-notifier.notify-config');

const FIELD_PROBLEM = /^[A-Za-z_][\w.]*: /;

/** Hands the body's one provider block to that provider; config errors name the field from the body's root. */
@Injectable()
export class NotifierHandler implements PluginHandler<Record<string, object>> {
  constructor(
    @Inject(NOTIFIER_PROVIDERS) private readonly providers: NotifierProviders,
    @Inject(NOTIFY_CONFIG) readonly configClass: ConfigClass<Record<string, object>>,
  ) {}

  async execute(ctx: ExecutionContext<Record<string, object>>): Promise<ExecuteTemplateReply> {
    const name = exactlyOneProviderBlock(ctx.config, [...this.providers.keys()]);
    try {
      return await this.providers.get(name)!.execute({ ...ctx, config: ctx.config[name]! });
    } catch (err) {
      // `channel: …` from the Slack block is `slack.channel: …` from the body's root.
      if (err instanceof PluginConfigError && FIELD_PROBLEM.test(err.message))
        throw new PluginConfigError(`${name}.${err.message}`);
      throw err;
    }
  }
}
