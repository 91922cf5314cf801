import { randomInt } from 'node:crypto';
import {
  credential,
  multipartParts,
  ProviderStandIn,
  type StandInRequest,
  type StandInResponse,
} from '@app/local-agent';
import { ApprovalScript } from '../approval-script.js';

export interface DiscordChannel {
  id: string;
  type: 'text' | 'forum';
  guild_id: string;
}

/** A person or a bot account; a bot has a token and the channels it may read and write. */
export interface DiscordUserEntry {
  id: string;
  username: string;
  bot: boolean;
  token?: string;
  channels: Set<string>;
}

export interface DiscordThread {
  id: string;
  parentId: string;
  name: string;
}

export interface DiscordWebhookEntry {
  id: string;
  token: string;
  channelId: string;
}

export interface DiscordStoredMessage {
  id: string;
  type: 0;
  channel_id: string;
  /** Set for a webhook's message; a bot's message has none. */
  webhook_id?: string;
  author: { id: string; username: string; bot: boolean };
  nonce?: string;
  content: string;
  embeds: Array<Record<string, unknown>>;
  attachments: Array<{ id: string; filename: string; size: number; url: string; content: string }>;
  mentions: Array<{ id: string }>;
  mention_roles: string[];
  mention_everyone: boolean;
  timestamp: string;
  edited_timestamp: string | null;
}

const error = (status: number, code: number, message: string, extra: object = {}): StandInResponse => ({
  status,
  body: { message, code, ...extra },
});

/** Discord's documented limits (message and embed). */
const LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldValue: 1024,
  total: 6000,
};

/** A snowflake: a 64-bit number as text, increasing with time (`at`: the time it carries, as Discord's do). */
let sequence = 0;
function snowflake(at = Date.now()): string {
  const ms = BigInt(at - 1420070400000);
  return ((ms << 22n) | BigInt(randomInt(1 << 10) << 12) | BigInt(sequence++ & 0xfff)).toString();
}

/** The one guild the stand-in's channels belong to. */
const GUILD = '1100000000000000001';

/** A bot's repeated nonce returns its earlier message for this long (Discord: "the past few minutes"). */
const NONCE_TTL_MS = 5 * 60_000;

/**
 * Discord webhooks (https://discord.com/developers/docs/resources/webhook), for the calls the notifier makes:
 * execute (`POST /api/webhooks/{id}/{token}`, JSON or multipart with `payload_json` and `files[n]`; 204
 * without `?wait=true`, 200 and the message with it; `thread_id` for a thread of the channel, `thread_name`
 * for a new forum post), get and edit a message the webhook sent (`/messages/{id}`). The URL's token is the
 * only credential: a wrong one is 401 code 50027, an unknown webhook 404 code 10015, an unknown message 404
 * code 10008, a bad body 400 code 50035/50006. `/api/v10/…` works as well as `/api/…`.
 *
 * For approval gates, a bot's calls (`Authorization: Bot <token>`; a wrong or missing one is 401 code 0, a
 * channel the bot has no access to 403 code 50001): get a channel, send a message (`nonce` + `enforce_nonce`
 * return the bot's earlier message), list a channel's messages (newest first, `limit` 1–100), get a message (with
 * its `reactions` counts), edit it (its author only: 403 code 50005), and list who reacted with an emoji (by user
 * id, `after` + `limit` 1–100, default 25). A scripted approver (`script`) reacts, withdraws or deletes after the
 * request has been read (GET …/messages/{id}) a number of times.
 */
export class DiscordStandIn extends ProviderStandIn {
  readonly channels = new Map<string, DiscordChannel>();
  readonly threads = new Map<string, DiscordThread>();
  readonly webhooks = new Map<string, DiscordWebhookEntry>();
  readonly messages: DiscordStoredMessage[] = [];
  readonly users = new Map<string, DiscordUserEntry>();
  /** Message id → emoji → the ids of who reacted, in order. */
  readonly reactions = new Map<string, Map<string, string[]>>();
  /** What people do to a request after it has been read a number of times. */
  readonly script = new ApprovalScript();

  constructor() {
    super('discord', () => error(404, 0, '404: Not Found'));
    for (const root of ['/api', '/api/v10']) {
      this.route('POST', `${root}/webhooks/:id/:token`, (req) =>
        this.withWebhook(req, (w) => this.execute(w, req)),
      )
        .route('GET', `${root}/webhooks/:id/:token/messages/:mid`, (req) =>
          this.withWebhook(req, (w) => this.get(w, req)),
        )
        .route('PATCH', `${root}/webhooks/:id/:token/messages/:mid`, (req) =>
          this.withWebhook(req, (w) => this.edit(w, req)),
        )
        .route('GET', `${root}/users/@me`, (req) => {
          const token = credential(req, 'Bot');
          const bot = token ? [...this.users.values()].find((u) => u.bot && u.token === token) : undefined;
          if (!bot) return error(401, 0, '401: Unauthorized');
          return { body: { id: bot.id, username: bot.username, bot: true } };
        })
        .route('GET', `${root}/channels/:c`, (req) =>
          this.asBot(req, (_bot, channel) => ({ body: { id: channel, type: 0, guild_id: GUILD } })),
        )
        .route('POST', `${root}/channels/:c/messages`, (req) =>
          this.asBot(req, (bot, c) => this.botSend(bot, c, req)),
        )
        .route('GET', `${root}/channels/:c/messages`, (req) =>
          this.asBot(req, (_b, c) => this.botList(c, req)),
        )
        .route('GET', `${root}/channels/:c/messages/:mid`, (req) =>
          this.asBot(req, (_bot, c) => {
            this.script.read(req.params.mid);
            return this.botMessage(c, req.params.mid, (m) => ({ body: this.botView(m) }));
          }),
        )
        .route('PATCH', `${root}/channels/:c/messages/:mid`, (req) =>
          this.asBot(req, (bot, c) => this.botMessage(c, req.params.mid, (m) => this.botEdit(bot, m, req))),
        )
        .route('GET', `${root}/channels/:c/messages/:mid/reactions/:emoji`, (req) =>
          this.asBot(req, (_bot, c) => this.botMessage(c, req.params.mid, (m) => this.reactors(m, req))),
        );
    }
  }

  /** A bot account with a token, allowed into `channels`. */
  addBot(username: string, token: string, channels: DiscordChannel[]): DiscordUserEntry {
    return this.addUser(username, { bot: true, token, channels });
  }

  addUser(
    username: string,
    options: { bot?: boolean; token?: string; channels?: DiscordChannel[]; id?: string } = {},
  ): DiscordUserEntry {
    const user = {
      id: options.id ?? snowflake(),
      username,
      bot: options.bot ?? false,
      token: options.token,
      channels: new Set((options.channels ?? []).map((c) => c.id)),
    };
    this.users.set(user.id, user);
    return user;
  }

  /** `user` reacts to a message with `emoji`; again changes nothing. */
  react(messageId: string, user: DiscordUserEntry, emoji: string): void {
    const byEmoji = this.reactions.get(messageId) ?? new Map<string, string[]>();
    this.reactions.set(messageId, byEmoji);
    const users = byEmoji.get(emoji) ?? [];
    byEmoji.set(emoji, users);
    if (!users.includes(user.id)) users.push(user.id);
  }

  /** `user` takes a reaction back; the emoji disappears with its last reaction. */
  unreact(messageId: string, user: DiscordUserEntry, emoji: string): void {
    const byEmoji = this.reactions.get(messageId);
    const users = byEmoji?.get(emoji)?.filter((id) => id !== user.id) ?? [];
    if (users.length > 0) byEmoji!.set(emoji, users);
    else byEmoji?.delete(emoji);
  }

  /** A moderator deletes a message. */
  deleteMessage(messageId: string): void {
    const i = this.messages.findIndex((m) => m.id === messageId);
    if (i >= 0) this.messages.splice(i, 1);
    this.reactions.delete(messageId);
  }

  /** 429 as Discord answers a bot's calls of `method` on a channel. */
  rateLimitBot(method: string, retryAfterSeconds: number, times = 1): void {
    this.rateLimit(
      retryAfterSeconds,
      times,
      'channel-messages',
      'user',
      (r) => r.method === method && /\/channels\//.test(r.path),
    );
  }

  /** Discord's 429: `{message, retry_after, global}`, Retry-After and the X-RateLimit-* headers of the bucket. */
  private rateLimit(
    retryAfterSeconds: number,
    times: number,
    bucket: string,
    scope: string,
    match: (r: StandInRequest) => boolean,
  ): void {
    this.server.faults.add(
      {
        kind: 'rate-limit',
        retryAfterSeconds,
        body: { message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: false },
        headers: {
          'X-RateLimit-Limit': '5',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset-After': String(retryAfterSeconds),
          'X-RateLimit-Bucket': bucket,
          'X-RateLimit-Scope': scope,
        },
      },
      { times, match },
    );
  }

  /** The bot a call is made as, and the channel it addresses (which must exist and be open to the bot). */
  private asBot(
    req: StandInRequest,
    run: (bot: DiscordUserEntry, channel: string) => StandInResponse,
  ): StandInResponse {
    const token = credential(req, 'Bot');
    const bot = token ? [...this.users.values()].find((u) => u.bot && u.token === token) : undefined;
    if (!bot) return error(401, 0, '401: Unauthorized');
    if (!this.channels.has(req.params.c) && !this.threads.has(req.params.c))
      return error(404, 10003, 'Unknown Channel');
    if (!bot.channels.has(req.params.c)) return error(403, 50001, 'Missing Access');
    return run(bot, req.params.c);
  }

  private botMessage(
    channel: string,
    id: string,
    run: (m: DiscordStoredMessage) => StandInResponse,
  ): StandInResponse {
    const message = this.messages.find((m) => m.id === id && m.channel_id === channel);
    return message ? run(message) : error(404, 10008, 'Unknown Message');
  }

  private botSend(bot: DiscordUserEntry, channel: string, req: StandInRequest): StandInResponse {
    const json = req.body as Record<string, unknown> | undefined;
    if (typeof json !== 'object' || json === null)
      return error(400, 50109, 'The request body contains invalid JSON.');
    const invalid = this.check(json, 0);
    if (invalid) return invalid;
    const nonce =
      typeof json.nonce === 'string' || typeof json.nonce === 'number' ? String(json.nonce) : undefined;
    if (nonce !== undefined && nonce.length > 25)
      return error(400, 50035, 'Invalid Form Body', {
        errors: {
          nonce: {
            _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 25 in length.' }],
          },
        },
      });
    if (nonce && json.enforce_nonce === true) {
      const since = Date.now() - NONCE_TTL_MS;
      const earlier = this.messages.find(
        (m) => m.nonce === nonce && m.author.id === bot.id && Date.parse(m.timestamp) >= since,
      );
      if (earlier) return { body: this.botView(earlier) };
    }
    const content = typeof json.content === 'string' ? json.content : '';
    const now = Date.now();
    const message: DiscordStoredMessage = {
      id: snowflake(now),
      type: 0,
      channel_id: channel,
      author: { id: bot.id, username: bot.username, bot: true },
      content,
      embeds: [],
      attachments: [],
      ...this.mentions(json, content),
      timestamp: new Date(now).toISOString(),
      edited_timestamp: null,
      ...(nonce && { nonce }),
    };
    this.messages.push(message);
    return { body: this.botView(message) };
  }

  private botList(channel: string, req: StandInRequest): StandInResponse {
    const limit = Number(req.query.get('limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return error(400, 50035, 'Invalid Form Body', {
        errors: {
          limit: {
            _errors: [{ code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 100.' }],
          },
        },
      });
    const newestFirst = this.in(channel).slice().reverse();
    return { body: newestFirst.slice(0, limit).map((m) => this.botView(m)) };
  }

  /** Only a message's author can edit it on Discord. */
  private botEdit(
    bot: DiscordUserEntry,
    message: DiscordStoredMessage,
    req: StandInRequest,
  ): StandInResponse {
    if (message.author.id !== bot.id)
      return error(403, 50005, 'Cannot edit a message authored by another user');
    const json = (req.body ?? {}) as Record<string, unknown>;
    const content = typeof json.content === 'string' ? json.content : message.content;
    const invalid = this.check({ content, embeds: message.embeds }, message.attachments.length);
    if (invalid) return invalid;
    message.content = content;
    message.edited_timestamp = new Date().toISOString();
    return { body: this.botView(message) };
  }

  /** GET …/reactions/{emoji}: users by id, `after` a user id, `limit` 1–100 (default 25). */
  private reactors(message: DiscordStoredMessage, req: StandInRequest): StandInResponse {
    const limit = Number(req.query.get('limit') ?? 25);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return error(400, 50035, 'Invalid Form Body');
    const after = BigInt(req.query.get('after') ?? 0);
    const ids = this.reactions.get(message.id)?.get(req.params.emoji);
    if (!ids) return error(404, 10014, 'Unknown Emoji');
    const users = ids
      .map((id) => this.users.get(id)!)
      .filter((u) => BigInt(u.id) > after)
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
      .slice(0, limit)
      .map((u) => ({ id: u.id, username: u.username, ...(u.bot && { bot: true }) }));
    return { body: users };
  }

  /** A message as a bot reads it: with the count of each emoji's reactions. */
  private botView(message: DiscordStoredMessage): Record<string, unknown> {
    const reactions = [...(this.reactions.get(message.id) ?? new Map<string, string[]>())].map(
      ([name, users]) => ({
        count: users.length,
        me: false,
        emoji: { id: null, name },
      }),
    );
    const { nonce: _nonce, ...rest } = view(message);
    return { ...rest, ...(reactions.length > 0 && { reactions }) };
  }

  /** A channel of the guild; `id` a fixed one (an example names it), else a fresh snowflake. */
  addChannel(type: DiscordChannel['type'] = 'text', id = snowflake()): DiscordChannel {
    const channel = { id, type, guild_id: GUILD };
    this.channels.set(channel.id, channel);
    return channel;
  }

  addThread(parent: DiscordChannel, name: string): DiscordThread {
    const thread = { id: snowflake(), parentId: parent.id, name };
    this.threads.set(thread.id, thread);
    return thread;
  }

  /** A webhook of `channel`; its URL is what the admin puts into DISCORD_WEBHOOK_URL. */
  addWebhook(channel: DiscordChannel): DiscordWebhookEntry & { url: string } {
    const webhook = {
      id: snowflake(),
      token: `${snowflake()}-demo_token-${snowflake()}`,
      channelId: channel.id,
    };
    this.webhooks.set(webhook.id, webhook);
    return { ...webhook, url: `${this.url}/api/webhooks/${webhook.id}/${webhook.token}` };
  }

  /** Messages in a channel or thread. */
  in(channelId: string): DiscordStoredMessage[] {
    return this.messages.filter((m) => m.channel_id === channelId);
  }

  /** 429 as Discord answers a webhook's execute: JSON with retry_after, Retry-After and X-RateLimit-* headers. */
  rateLimitExecute(retryAfterSeconds: number, times = 1): void {
    this.rateLimit(
      retryAfterSeconds,
      times,
      'webhook-execute',
      'shared',
      (r) => r.method === 'POST' && /\/webhooks\/\d+\/[^/]+$/.test(r.path),
    );
  }

  private withWebhook(
    req: StandInRequest,
    run: (w: DiscordWebhookEntry) => StandInResponse,
  ): StandInResponse {
    const webhook = this.webhooks.get(req.params.id);
    if (!webhook) return error(404, 10015, 'Unknown Webhook');
    if (webhook.token !== req.params.token) return error(401, 50027, 'Invalid Webhook Token');
    return run(webhook);
  }

  /** The channel a call addresses: the webhook's, or a thread of it (`thread_id`). */
  private target(webhook: DiscordWebhookEntry, req: StandInRequest): string | StandInResponse {
    const threadId = req.query.get('thread_id');
    if (!threadId) return webhook.channelId;
    const thread = this.threads.get(threadId);
    if (!thread || thread.parentId !== webhook.channelId) return error(404, 10003, 'Unknown Channel');
    return thread.id;
  }

  private payload(
    req: StandInRequest,
  ):
    { json: Record<string, unknown>; files: Array<{ filename: string; content: string }> } | StandInResponse {
    const parts = multipartParts(req);
    if (!parts) {
      if (typeof req.body !== 'object' || req.body === null)
        return error(400, 50109, 'The request body contains invalid JSON.');
      return { json: req.body as Record<string, unknown>, files: [] };
    }
    const payload = parts.find((p) => p.name === 'payload_json');
    let json: Record<string, unknown> = {};
    if (payload) {
      try {
        json = JSON.parse(payload.content) as Record<string, unknown>;
      } catch {
        return error(400, 50109, 'The request body contains invalid JSON.');
      }
    }
    const files = parts
      .filter((p) => /^files\[\d+\]$/.test(p.name) && p.filename !== undefined)
      .map((p) => ({ filename: p.filename!, content: p.content }));
    return { json, files };
  }

  private check(json: Record<string, unknown>, files: number): StandInResponse | undefined {
    const content = typeof json.content === 'string' ? json.content : '';
    const embeds = Array.isArray(json.embeds) ? (json.embeds as Array<Record<string, unknown>>) : [];
    if (content === '' && embeds.length === 0 && files === 0)
      return error(400, 50006, 'Cannot send an empty message');
    const problems: Record<string, unknown> = {};
    const tooLong = (max: number) => ({
      _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` }],
    });
    if (content.length > LIMITS.content) problems.content = tooLong(LIMITS.content);
    if (embeds.length > LIMITS.embeds) problems.embeds = tooLong(LIMITS.embeds);
    let total = 0;
    embeds.forEach((e, i) => {
      const title = String(e.title ?? '');
      const description = String(e.description ?? '');
      const fields = Array.isArray(e.fields) ? (e.fields as Array<{ name?: string; value?: string }>) : [];
      total +=
        title.length +
        description.length +
        fields.reduce((n, f) => n + String(f.name ?? '').length + String(f.value ?? '').length, 0);
      if (title.length > LIMITS.title) problems[`embeds.${i}.title`] = tooLong(LIMITS.title);
      if (description.length > LIMITS.description)
        problems[`embeds.${i}.description`] = tooLong(LIMITS.description);
      if (fields.length > LIMITS.fields) problems[`embeds.${i}.fields`] = tooLong(LIMITS.fields);
      if (fields.some((f) => String(f.value ?? '').length > LIMITS.fieldValue))
        problems[`embeds.${i}.fields`] = tooLong(LIMITS.fieldValue);
      if (e.color !== undefined && (typeof e.color !== 'number' || e.color < 0 || e.color > 0xffffff))
        problems[`embeds.${i}.color`] = {
          _errors: [
            { code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 16777215.' },
          ],
        };
    });
    if (total > LIMITS.total) problems.embeds = tooLong(LIMITS.total);
    return Object.keys(problems).length > 0
      ? error(400, 50035, 'Invalid Form Body', { errors: problems })
      : undefined;
  }

  private mentions(
    json: Record<string, unknown>,
    content: string,
  ): Pick<DiscordStoredMessage, 'mentions' | 'mention_roles' | 'mention_everyone'> {
    const allowed = json.allowed_mentions as
      { parse?: string[]; users?: string[]; roles?: string[] } | undefined;
    const users = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]);
    const roles = [...content.matchAll(/<@&(\d+)>/g)].map((m) => m[1]);
    const everyone = /@(everyone|here)\b/.test(content);
    if (!allowed)
      return { mentions: users.map((id) => ({ id })), mention_roles: roles, mention_everyone: everyone };
    const parse = allowed.parse ?? [];
    return {
      mentions: users
        .filter((id) => parse.includes('users') || (allowed.users ?? []).includes(id))
        .map((id) => ({ id })),
      mention_roles: roles.filter((id) => parse.includes('roles') || (allowed.roles ?? []).includes(id)),
      mention_everyone: everyone && parse.includes('everyone'),
    };
  }

  private execute(webhook: DiscordWebhookEntry, req: StandInRequest): StandInResponse {
    const parsed = this.payload(req);
    if (!('json' in parsed)) return parsed;
    const { json, files } = parsed;
    const invalid = this.check(json, files.length);
    if (invalid) return invalid;
    let channelId: string;
    if (typeof json.thread_name === 'string' && json.thread_name !== '') {
      if (req.query.get('thread_id')) return error(400, 50035, 'Invalid Form Body');
      if (this.channels.get(webhook.channelId)?.type !== 'forum')
        return error(400, 220003, 'Webhooks can only create threads in forum channels');
      channelId = this.addThread(this.channels.get(webhook.channelId)!, json.thread_name).id;
    } else {
      const target = this.target(webhook, req);
      if (typeof target !== 'string') return target;
      if (target === webhook.channelId && this.channels.get(target)?.type === 'forum')
        return error(400, 220001, 'Webhooks posted to forum channels must have a thread_name or thread_id');
      channelId = target;
    }
    const content = typeof json.content === 'string' ? json.content : '';
    const now = Date.now();
    const message: DiscordStoredMessage = {
      id: snowflake(now),
      type: 0,
      channel_id: channelId,
      webhook_id: webhook.id,
      author: { id: webhook.id, username: 'Argo Workflows', bot: true },
      content,
      embeds: Array.isArray(json.embeds) ? (json.embeds as Array<Record<string, unknown>>) : [],
      attachments: files.map((f) => {
        const id = snowflake();
        return {
          id,
          filename: f.filename,
          size: Buffer.byteLength(f.content),
          url: `${this.url}/attachments/${channelId}/${id}/${f.filename}`,
          content: f.content,
        };
      }),
      ...this.mentions(json, content),
      timestamp: new Date(now).toISOString(),
      edited_timestamp: null,
    };
    this.messages.push(message);
    if (req.query.get('wait') !== 'true') return { status: 204 };
    return { body: view(message) };
  }

  private find(webhook: DiscordWebhookEntry, req: StandInRequest): DiscordStoredMessage | StandInResponse {
    const target = this.target(webhook, req);
    if (typeof target !== 'string') return target;
    const message = this.messages.find(
      (m) => m.id === req.params.mid && m.webhook_id === webhook.id && m.channel_id === target,
    );
    return message ?? error(404, 10008, 'Unknown Message');
  }

  private get(webhook: DiscordWebhookEntry, req: StandInRequest): StandInResponse {
    const message = this.find(webhook, req);
    return 'id' in message ? { body: view(message) } : message;
  }

  private edit(webhook: DiscordWebhookEntry, req: StandInRequest): StandInResponse {
    const message = this.find(webhook, req);
    if (!('id' in message)) return message;
    const parsed = this.payload(req);
    if (!('json' in parsed)) return parsed;
    const { json } = parsed;
    // PATCH: fields left out keep their value.
    const merged = { content: json.content ?? message.content, embeds: json.embeds ?? message.embeds };
    const invalid = this.check(merged, message.attachments.length);
    if (invalid) return invalid;
    message.content = String(merged.content);
    message.embeds = merged.embeds as Array<Record<string, unknown>>;
    Object.assign(message, this.mentions(json, message.content));
    message.edited_timestamp = new Date().toISOString();
    return { body: view(message) };
  }
}

/** A message as the API shows it (the stored file content left out). */
function view(message: DiscordStoredMessage): Record<string, unknown> {
  return { ...message, attachments: message.attachments.map(({ content: _c, ...a }) => a) };
}
