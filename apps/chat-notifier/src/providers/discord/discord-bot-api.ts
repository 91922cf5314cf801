import type { AxiosInstance } from 'axios';
import { UpstreamError, upstreamVariable } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { withHint } from '../../shared/upstream-hints.js';
import { replyFields } from '../../shared/reply-fields.js';
import type { DiscordBot } from './discord-bot-settings.js';
import { describeDiscordError } from './discord-webhook.js';

/** A user as messages and reaction lists show it (https://discord.com/developers/docs/resources/user). */
export interface DiscordUser {
  id: string;
  username: string;
  /** Set for bot accounts (and webhooks' authors). */
  bot?: boolean;
}

/** The parts of a message the approval reader reads (https://discord.com/developers/docs/resources/message). */
export interface DiscordMessageObject {
  id: string;
  channel_id: string;
  author: DiscordUser;
  content: string;
  /** One entry per emoji on the message, with how many reacted. */
  reactions?: Array<{ count: number; emoji: { id: string | null; name: string | null } }>;
}

/** Largest page of GET …/reactions/{emoji} and GET …/messages. */
const PAGE = 100;

/** The REST API of Discord with a bot token, for the calls an approval request needs. */
export class DiscordBotApi {
  private readonly http: AxiosInstance;
  private me?: string;

  constructor(
    readonly bot: string,
    config: DiscordBot,
    timeoutMs: number,
  ) {
    this.http = createUpstreamClient({
      upstream: 'discord',
      baseURL: config.apiUrl,
      headers: { Authorization: `Bot ${config.token}` },
      timeoutMs,
      describe: (response) => describeDiscordError(response.data),
    });
  }

  private get hints() {
    const variable = upstreamVariable({ prefix: 'DISCORD' }, this.bot, 'BOT_TOKEN');
    return {
      401: `the token of bot "${this.bot}" is invalid or was reset: the admin puts the current one into ${variable}`,
      403: 'the bot lacks access to the channel: it needs View Channel, Send Messages and Read Message History there',
    };
  }

  private async call<T>(run: () => Promise<{ data: T }>, notFound?: string): Promise<T> {
    try {
      return (await run()).data;
    } catch (err) {
      throw withHint(err, { ...this.hints, ...(notFound && { 404: notFound }) });
    }
  }

  /**
   * Sends a message. With `enforce_nonce`, Discord returns the message this bot already sent with the same
   * nonce in the past few minutes instead of sending a second one.
   */
  async send(
    channel: string,
    content: string,
    nonce: string,
    signal: AbortSignal,
  ): Promise<DiscordMessageObject> {
    const body = { content, nonce, enforce_nonce: true, allowed_mentions: { parse: [] } };
    const data = await this.call(
      () => this.http.post(`/channels/${channel}/messages`, body, { signal }),
      `channel ${channel} does not exist or the bot cannot see it`,
    );
    return messageOf(`POST /channels/${channel}/messages`, data);
  }

  /** The bot's own user id (GET /users/@me), read once: the author of every message it sends. */
  async ownUserId(signal: AbortSignal): Promise<string> {
    if (this.me === undefined) {
      const data = await this.call(() => this.http.get('/users/@me', { signal }));
      this.me = replyFields('discord', 'GET /users/@me', data, { id: 'string' }).id;
    }
    return this.me;
  }

  /** The channel: its guild (server) makes the message's link. */
  async channel(channel: string, signal: AbortSignal): Promise<{ id: string; guild_id?: string }> {
    const data = await this.call(
      () => this.http.get(`/channels/${channel}`, { signal }),
      `channel ${channel} does not exist or the bot cannot see it`,
    );
    return replyFields('discord', `GET /channels/${channel}`, data, { id: 'string' });
  }

  /** The newest `PAGE` messages of a channel, newest first. */
  async recent(channel: string, signal: AbortSignal): Promise<DiscordMessageObject[]> {
    const data = await this.call<unknown>(
      () => this.http.get(`/channels/${channel}/messages`, { params: { limit: PAGE }, signal }),
      `channel ${channel} does not exist or the bot cannot see it`,
    );
    if (!Array.isArray(data))
      throw UpstreamError.permanent(`discord: GET /channels/${channel}/messages: no list in the reply`);
    return data.filter(
      (m): m is DiscordMessageObject => typeof m?.id === 'string' && typeof m?.content === 'string',
    );
  }

  /** The message; a 404 (Unknown Message, code 10008) is the caller's to read. */
  async message(channel: string, id: string, signal: AbortSignal): Promise<DiscordMessageObject> {
    const data = await this.call(() => this.http.get(`/channels/${channel}/messages/${id}`, { signal }));
    return messageOf(`GET /channels/${channel}/messages/${id}`, data);
  }

  async edit(
    channel: string,
    id: string,
    content: string,
    signal: AbortSignal,
  ): Promise<DiscordMessageObject> {
    const data = await this.call(() =>
      this.http.patch(
        `/channels/${channel}/messages/${id}`,
        { content, allowed_mentions: { parse: [] } },
        { signal },
      ),
    );
    return messageOf(`PATCH /channels/${channel}/messages/${id}`, data);
  }

  /** Everyone who reacted with `emoji` (a Unicode emoji), page by page (`after` the last user id, 100 a page). */
  async reactionUsers(
    channel: string,
    id: string,
    emoji: string,
    signal: AbortSignal,
  ): Promise<DiscordUser[]> {
    const path = `/channels/${channel}/messages/${id}/reactions/${encodeURIComponent(emoji)}`;
    const users: DiscordUser[] = [];
    for (let after: string | undefined; ;) {
      const data = await this.call<unknown>(() =>
        this.http.get(path, { params: { limit: PAGE, ...(after && { after }) }, signal }),
      );
      if (!Array.isArray(data)) throw UpstreamError.permanent(`discord: GET ${path}: no list in the reply`);
      const page = data.filter((u): u is DiscordUser => typeof u?.id === 'string');
      users.push(...page);
      if (data.length < PAGE || page.length === 0) return users;
      after = page[page.length - 1]!.id;
    }
  }
}

function messageOf(request: string, data: unknown): DiscordMessageObject {
  const fields = replyFields('discord', request, data, { id: 'string', channel_id: 'string' });
  const message = data as DiscordMessageObject;
  if (typeof message.author?.id !== 'string')
    throw UpstreamError.permanent(`discord: ${request}: no author in the reply`);
  return { ...message, ...fields, content: typeof message.content === 'string' ? message.content : '' };
}
