import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { parseDuration } from '@app/contract';
import { Redactor, succeeded, type ExecutionContext } from '@app/plugin-kit';
import { pickDestination, type DestinationKind } from '../../config/named-destinations.js';
import { NotifierEnv } from '../../config/notifier.env.js';
import type { GoogleChatConfig } from '../../dto/google-chat-config.dto.js';
import type { NotifierProvider } from '../notifier-provider.js';
import { renderGoogleChat } from './google-chat-message.js';
import { GoogleChatWebhookClient, type GoogleChatPosted } from './google-chat-webhook.js';

const WEBHOOKS: DestinationKind = {
  provider: 'Google Chat',
  scope: 'googleChat',
  field: 'webhook',
  enable: 'GOOGLE_CHAT_WEBHOOK_URL',
  variablesFor: (name) => `GOOGLE_CHAT_WEBHOOK_URL_${name}`,
};

/**
 * Google Chat through a space's incoming webhook: a text message or a cards v2 card, in a thread by key or
 * name. One message per execution: the ledger within a process, and the `requestId` of the execution,
 * with which Google Chat returns the message it already created instead of a second one (also after a
 * sidecar restart). A webhook cannot edit messages: that takes a Chat app, which is not built (see docs).
 */
@Injectable()
export class GoogleChatProvider implements NotifierProvider<GoogleChatConfig> {
  private readonly clients = new Map<string, GoogleChatWebhookClient>();
  private readonly timeoutMs: number;

  constructor(
    private readonly env: NotifierEnv,
    redactor: Redactor,
  ) {
    this.timeoutMs = parseDuration(env.NOTIFY_REQUEST_TIMEOUT);
    for (const webhook of env.googleChat.values())
      redactor.add(webhook.key, webhook.token, encodeURIComponent(webhook.token));
  }

  async execute(
    ctx: ExecutionContext<GoogleChatConfig, { posted?: GoogleChatPosted }>,
  ): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const client = this.client(config.webhook, ctx.workflow.namespace);
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

  private client(webhook: string | undefined, namespace: string): GoogleChatWebhookClient {
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const destination = pickDestination(WEBHOOKS, this.env.googleChat, webhook, {
      scopes: this.env.scopes,
      namespace,
    });
    const name = (webhook ?? 'default').toLowerCase();
    let client = this.clients.get(name);
    if (!client) {
      client = new GoogleChatWebhookClient(name, destination, this.timeoutMs);
      this.clients.set(name, client);
    }
    return client;
  }
}
