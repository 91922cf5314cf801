import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { PluginConfigError, succeeded, UpstreamClients, type ExecutionContext } from '@app/plugin-kit';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import { GoogleChatConfig } from './google-chat-block.dto.js';
import type { NotifierProvider, ProviderModule } from '../notifier-provider.js';
import { GoogleChatAppClient } from './google-chat-app.js';
import { renderGoogleChat } from './google-chat-message.js';
import {
  GOOGLE_CHAT_APP,
  GOOGLE_CHAT_WEBHOOKS,
  type GoogleChatWebhook,
  type GoogleChatSettings,
} from './google-chat-settings.js';
import { GoogleChatWebhookClient, type GoogleChatPosted } from './google-chat-webhook.js';
import { CHAT_BOT_SCOPE, ServiceAccountTokens } from './service-account-token.js';

/** The client-assigned ID of an execution's message: `client-` and 56 hex digits of its key (63 characters). */
export function clientMessageId(executionKey: string): string {
  return `client-${executionKey.slice(0, 56).toLowerCase()}`;
}

/**
 * Google Chat, two ways. Through a space's incoming webhook: a text message or a cards v2 card, in a thread
 * by key or name; one message per execution by the ledger within a process and the execution's `requestId`
 * across restarts. As the admin's Chat app (`space:` or `update:`, a service account): the same message
 * created under a client-assigned ID derived from the execution, so a second create (retry, restart) finds
 * the first message instead of adding one, and messages of earlier steps updated in place.
 */
@Injectable()
export class GoogleChatProvider implements NotifierProvider<GoogleChatConfig> {
  private readonly clients: UpstreamClients<GoogleChatWebhook, GoogleChatWebhookClient>;
  private readonly app?: GoogleChatAppClient;

  constructor(
    @InjectProviderContext('googleChat') private readonly context: ProviderContext<GoogleChatSettings>,
  ) {
    const { timeoutMs, redactor } = context;
    const settings = context.settings;
    for (const webhook of settings.webhooks.values())
      redactor.add(webhook.key, webhook.token, encodeURIComponent(webhook.token));
    this.clients = new UpstreamClients(
      GOOGLE_CHAT_WEBHOOKS,
      settings.webhooks,
      (webhook, name) => new GoogleChatWebhookClient(name, webhook, timeoutMs),
    );
    const account = settings.app;
    if (account) {
      redactor.add(account.privateKeyPem);
      const tokens = new ServiceAccountTokens(account, CHAT_BOT_SCOPE, redactor, timeoutMs);
      this.app = new GoogleChatAppClient(settings.apiUrl, tokens, account.clientEmail, timeoutMs);
    }
  }

  async execute(
    ctx: ExecutionContext<GoogleChatConfig, { posted?: GoogleChatPosted }>,
  ): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    if (config.space !== undefined || config.update !== undefined) return this.executeAsApp(ctx);
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const client = this.clients.get(config.webhook, {
      scopes: this.context.scopes,
      namespace: ctx.workflow.namespace,
    });
    const state = ctx.state.get() ?? {};
    if (!state.posted) {
      const posted = await client.send(
        renderGoogleChat(config),
        `argo-${ctx.key.slice(0, 40)}`,
        config.thread,
      );
      state.posted = { name: posted.name, thread: { name: posted.thread?.name ?? '' } };
      await ctx.state.set(state);
    }
    const { name, thread } = state.posted;
    const where = config.thread ? `replied in thread ${thread?.name}` : `posted to ${client.space}`;
    return succeeded(
      { id: name, thread: thread?.name ?? '', space: client.space },
      `${where}: ${name} (webhook ${config.webhook ?? 'default'})`,
    );
  }

  private async executeAsApp(
    ctx: ExecutionContext<GoogleChatConfig, { posted?: GoogleChatPosted }>,
  ): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const app = this.appFor(config, ctx.workflow.namespace);
    const space = config.space ?? config.update!.split('/messages/')[0]!;
    const state = ctx.state.get() ?? {};
    if (!state.posted) {
      const message = renderGoogleChat(config);
      const posted = config.update
        ? await app.update(config.update, message)
        : await app.create(space, clientMessageId(ctx.key), message, config.thread);
      state.posted = { name: posted.name, thread: { name: posted.thread?.name ?? '' } };
      await ctx.state.set(state);
    }
    const { name, thread } = state.posted;
    const action = config.update
      ? `updated ${name}`
      : config.thread
        ? `replied in thread ${thread?.name}: ${name}`
        : `posted to ${space}: ${name}`;
    return succeeded({ id: name, thread: thread?.name ?? '', space }, `${action} (Chat app)`);
  }

  /** The Chat app, when the admin configured it and opened it to the namespace, for a consistent body. */
  private appFor(config: GoogleChatConfig, namespace: string): GoogleChatAppClient {
    if (config.webhook !== undefined)
      throw new PluginConfigError(
        'webhook: space and update post as the Chat app, not through a webhook; leave one of them out',
      );
    if (config.update && config.thread !== undefined)
      throw new PluginConfigError('thread: an update keeps the message in its thread; leave thread out');
    if (config.update && config.space !== undefined && !config.update.startsWith(`${config.space}/messages/`))
      throw new PluginConfigError(`update: the message ${config.update} is not in space ${config.space}`);
    if (!this.app || !this.context.scopes.allows('googleChat', GOOGLE_CHAT_APP, namespace))
      throw new PluginConfigError(
        `${config.update ? 'update' : 'space'}: no Google Chat app for namespace ${namespace}; the admin sets GOOGLE_CHAT_SERVICE_ACCOUNT_JSON (a webhook posts without it, but cannot update)`,
      );
    return this.app;
  }
}

/** What the definition's `load()` gives: the block class and the Nest provider. */
export const googleChatModule: ProviderModule<GoogleChatConfig> = {
  block: GoogleChatConfig,
  provider: GoogleChatProvider,
};
