import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import {
  DEFAULT_UPSTREAM,
  pickUpstream,
  PluginConfigError,
  succeeded,
  UpstreamClients,
  upstreamVariable,
  type ExecutionContext,
} from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { AxiosInstance } from 'axios';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import { TeamsConfig } from './teams-block.dto.js';
import type { NotifierProvider, ProviderModule } from '../notifier-provider.js';
import { withHint } from '../../shared/upstream-hints.js';
import { renderAdaptiveCard } from './adaptive-card.js';
import { BotConnector } from './bot-connector.js';
import { BotFrameworkToken } from './bot-framework-token.js';
import { TEAMS_BOTS, TEAMS_WEBHOOKS, type TeamsSettings } from './teams-settings.js';

/** The message a bot step sent or edited, as its outputs name it. */
export interface TeamsBotMessage {
  /** The activity id. */
  id: string;
  /** Where later steps post to reply in the same thread (`<channel>;messageid=<root>`). */
  conversation: string;
  /** The root activity of the thread. */
  thread: string;
  channel: string;
}

interface TeamsState {
  /** Webhook mode: the card went out. */
  sent?: boolean;
  /** Bot mode: the message sent or edited. */
  message?: TeamsBotMessage;
}

const CHANNEL_CONVERSATION = /@thread\.(?:tacv2|skype)$/;

/** The thread root a conversation id names (`…;messageid=<root>`), if any. */
function rootOf(conversation: string): string | undefined {
  return /;messageid=([0-9]+)$/.exec(conversation)?.[1];
}

/** Power Automate's error body: `{error: {code, message}}`. */
function describe(data: unknown): string | undefined {
  const e = (data as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (typeof e?.message !== 'string') return undefined;
  return typeof e.code === 'string' ? `${e.message} (${e.code})` : e.message;
}

/**
 * Microsoft Teams through a Workflows (Power Automate) webhook: an Adaptive Card in the status style, with
 * facts and @mentions. The webhook answers 202 with no message id and Teams offers no way to look a
 * message up or to send with an idempotency key, so: no replies, no edits, and one message per execution
 * only within a sidecar's life (a restart, or a send whose answer was lost, sends again — see docs).
 */
@Injectable()
export class TeamsProvider implements NotifierProvider<TeamsConfig> {
  private readonly clients: UpstreamClients<string, { http: AxiosInstance; name: string }>;
  private readonly settings: TeamsSettings;
  /** The bot's connector, as the one destination of kind teamsBot. */
  private readonly connectors = new Map<string, BotConnector>();

  constructor(@InjectProviderContext('teams') private readonly context: ProviderContext<TeamsSettings>) {
    const { timeoutMs, redactor } = context;
    this.settings = context.settings;
    for (const url of this.settings.webhooks.values()) {
      const sig = new URL(url).searchParams.get('sig')!;
      redactor.add(sig);
    }
    this.clients = new UpstreamClients(TEAMS_WEBHOOKS, this.settings.webhooks, (url, name) =>
      webhookClient(url, name, timeoutMs),
    );
    const { bot } = this.settings;
    if (bot) {
      const token = new BotFrameworkToken(bot, this.settings.loginUrl, timeoutMs, redactor);
      this.connectors.set(DEFAULT_UPSTREAM, new BotConnector(this.settings.serviceUrl, timeoutMs, token));
    }
  }

  async execute(ctx: ExecutionContext<TeamsConfig, TeamsState>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    if (config.viaBot()) return this.viaBot(ctx);
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const { http, name } = this.clients.get(config.webhook, {
      scopes: this.context.scopes,
      namespace: ctx.workflow.namespace,
    });
    if (!ctx.state.get()?.sent) {
      try {
        await http.post('', renderAdaptiveCard(config));
      } catch (err) {
        const variable = upstreamVariable({ prefix: 'TEAMS' }, name, 'WEBHOOK_URL');
        throw withHint(err, {
          401: `webhook "${name}" was refused: its URL is wrong or its flow was recreated; the admin copies the flow's URL again into ${variable}`,
          404: `the flow behind webhook "${name}" was deleted or turned off (the admin checks ${variable})`,
        });
      }
      await ctx.state.set({ sent: true });
    }
    return succeeded({}, `posted an Adaptive Card through Teams webhook ${name} (Teams gives no message id)`);
  }

  /**
   * Bot mode: a new thread in a channel (Create Conversation), a reply (to the thread's root activity) or an
   * edit (Update Activity). The connector has no idempotency key and no way for a bot to list a channel's
   * messages, so one message per execution holds within a sidecar's life (the ledger); a restart between
   * the send and the step's success, or a send whose answer was lost, sends again (see docs). Edits are
   * idempotent by nature.
   */
  private async viaBot(ctx: ExecutionContext<TeamsConfig, TeamsState>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    if (config.webhook !== undefined)
      throw new PluginConfigError(
        'webhook: a message to a channel or conversation goes through the bot; leave webhook out',
      );
    const bot = pickUpstream(TEAMS_BOTS, this.connectors, undefined, {
      scopes: this.context.scopes,
      namespace: ctx.workflow.namespace,
    });
    let message = ctx.state.get()?.message;
    if (!message) {
      message = await this.sendViaBot(bot, config);
      await ctx.state.set({ message });
    }
    const action = config.update
      ? `updated Teams message ${message.id}`
      : message.id === message.thread
        ? `started a thread in Teams channel ${message.channel}: message ${message.id}`
        : `replied in Teams thread ${message.thread}: message ${message.id}`;
    return succeeded({ ...message }, `${action} (through the bot)`);
  }

  private async sendViaBot(bot: BotConnector, config: TeamsConfig): Promise<TeamsBotMessage> {
    const card = renderAdaptiveCard(config);
    const channel = config.channel ?? config.conversation!.split(';')[0];
    if (config.update) {
      const conversation = config.conversation ?? `${channel};messageid=${config.thread ?? config.update}`;
      await bot.update(conversation, config.update, card);
      return { id: config.update, conversation, thread: rootOf(conversation) ?? config.update, channel };
    }
    if (config.conversation || config.thread) {
      const root = config.thread ?? rootOf(config.conversation!);
      const target = config.conversation ?? `${channel};messageid=${root}`;
      const id = await bot.send(target, card, root);
      const conversation = root || !CHANNEL_CONVERSATION.test(target) ? target : `${target};messageid=${id}`;
      return { id, conversation, thread: root ?? id, channel };
    }
    const tenant = this.settings.bot!.tenant;
    const created = await bot.createThread(
      channel,
      /^[0-9a-f-]{36}$/i.test(tenant) ? tenant : undefined,
      card,
    );
    return { id: created.activityId, conversation: created.id, thread: created.activityId, channel };
  }
}

/** The client of a Workflows webhook: its URL's query (with `sig`) on every request. */
function webhookClient(
  webhook: string,
  name: string,
  timeoutMs: number,
): { http: AxiosInstance; name: string } {
  const url = new URL(webhook);
  const http = createUpstreamClient({
    upstream: 'teams',
    baseURL: `${url.origin}${url.pathname}`,
    timeoutMs,
    describe: (response) => describe(response.data),
  });
  // The query (api-version, sp, sv, sig) goes with every call; it stays out of paths in messages.
  http.defaults.params = Object.fromEntries(url.searchParams);
  return { http, name };
}

/** What the definition's `load()` gives: the block class and the Nest provider. */
export const teamsModule: ProviderModule<TeamsConfig> = { block: TeamsConfig, provider: TeamsProvider };
