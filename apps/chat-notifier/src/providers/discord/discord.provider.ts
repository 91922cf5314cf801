import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { PluginConfigError, succeeded, UpstreamClients, type ExecutionContext } from '@app/plugin-kit';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import { DiscordConfig } from './discord-block.dto.js';
import type { NotifierProvider, ProviderModule } from '../notifier-provider.js';
import { renderDiscord } from './discord-message.js';
import { DISCORD_WEBHOOKS, type DiscordWebhook, type DiscordSettings } from './discord-settings.js';
import { DiscordWebhookClient, type DiscordPosted } from './discord-webhook.js';

interface DiscordState {
  message?: DiscordPosted;
}

/**
 * Discord through a channel webhook: a message (with an embed in the status colour, fields and a file), a
 * message in a thread (`thread_id`), a new forum post (`thread_name`), or an edit (`PATCH …/messages/{id}`).
 * One message per execution within a sidecar's life: a webhook can neither read the channel nor send with
 * an idempotency key, so after a sidecar restart (or a send whose reply was lost) the message is sent again.
 */
@Injectable()
export class DiscordProvider implements NotifierProvider<DiscordConfig> {
  private readonly clients: UpstreamClients<DiscordWebhook, DiscordWebhookClient>;

  constructor(@InjectProviderContext('discord') private readonly context: ProviderContext<DiscordSettings>) {
    const { timeoutMs, redactor } = context;
    const { webhooks } = context.settings;
    for (const webhook of webhooks.values()) redactor.add(webhook.token);
    this.clients = new UpstreamClients(
      DISCORD_WEBHOOKS,
      webhooks,
      (webhook, name) => new DiscordWebhookClient(name, webhook, timeoutMs),
    );
  }

  async execute(ctx: ExecutionContext<DiscordConfig, DiscordState>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    if (config.update && config.file)
      throw new PluginConfigError('file: cannot be added by an edit (update); send it as a new message');
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const client = this.clients.get(config.webhook, {
      scopes: this.context.scopes,
      namespace: ctx.workflow.namespace,
    });
    const state = ctx.state.get() ?? {};
    if (!state.message) {
      const message = renderDiscord(config);
      const posted = config.update
        ? await client.edit(config.update, message, config.thread)
        : await client.send(message, {
            threadId: config.thread,
            threadName: config.threadName,
            file: config.file,
          });
      state.message = { id: posted.id, channel_id: posted.channel_id };
      await ctx.state.set(state);
    }
    const { id, channel_id: channel } = state.message;
    const inThread = config.thread !== undefined || config.threadName !== undefined;
    return succeeded({ id, channel, thread: inThread ? channel : '' }, this.describe(config, id, channel));
  }

  private describe(config: DiscordConfig, id: string, channel: string): string {
    const webhook = `webhook ${config.webhook ?? 'default'}`;
    const action = config.update
      ? `updated message ${id}`
      : config.threadName
        ? `started forum post ${channel} ("${config.threadName}") with message ${id}`
        : config.thread
          ? `posted message ${id} in thread ${config.thread}`
          : `posted message ${id} to channel ${channel}`;
    return `${action} (${webhook})${config.file ? ` with file ${config.file.filename}` : ''}`;
  }
}

/** What the definition's `load()` gives: the block class and the Nest provider. */
export const discordModule: ProviderModule<DiscordConfig> = {
  block: DiscordConfig,
  provider: DiscordProvider,
};
