import { randomInt } from 'node:crypto';
import type { StandInRequest, StandInResponse } from '@app/testing';
import { multipartParts, ProviderStandIn } from '../provider-stand-in.js';

export interface DiscordChannel {
  id: string;
  type: 'text' | 'forum';
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
  webhook_id: string;
  author: { id: string; username: string; bot: true };
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

/** A snowflake: a 64-bit number as text, increasing with time. */
let sequence = 0;
function snowflake(): string {
  const ms = BigInt(Date.now() - 1420070400000);
  return ((ms << 22n) | BigInt(randomInt(1 << 10) << 12) | BigInt(sequence++ & 0xfff)).toString();
}

/**
 * Discord webhooks (https://discord.com/developers/docs/resources/webhook), for the calls the notifier makes:
 * execute (`POST /api/webhooks/{id}/{token}`, JSON or multipart with `payload_json` and `files[n]`; 204
 * without `?wait=true`, 200 and the message with it; `thread_id` for a thread of the channel, `thread_name`
 * for a new forum post), get and edit a message the webhook sent (`/messages/{id}`). The URL's token is the
 * only credential: a wrong one is 401 code 50027, an unknown webhook 404 code 10015, an unknown message 404
 * code 10008, a bad body 400 code 50035/50006. `/api/v10/…` works as well as `/api/…`.
 */
export class DiscordStandIn extends ProviderStandIn {
  readonly channels = new Map<string, DiscordChannel>();
  readonly threads = new Map<string, DiscordThread>();
  readonly webhooks = new Map<string, DiscordWebhookEntry>();
  readonly messages: DiscordStoredMessage[] = [];

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
        );
    }
  }

  addChannel(type: DiscordChannel['type'] = 'text'): DiscordChannel {
    const channel = { id: snowflake(), type };
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

  /** 429 as Discord answers it: JSON with retry_after, Retry-After and the X-RateLimit-* headers. */
  rateLimitExecute(retryAfterSeconds: number, times = 1): void {
    this.server.faults.add(
      {
        kind: 'rate-limit',
        retryAfterSeconds,
        body: { message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: false },
        headers: {
          'X-RateLimit-Limit': '5',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset-After': String(retryAfterSeconds),
          'X-RateLimit-Bucket': 'webhook-execute',
          'X-RateLimit-Scope': 'shared',
        },
      },
      { times, match: (r) => r.method === 'POST' && /\/webhooks\/\d+\/[^/]+$/.test(r.path) },
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
    const message: DiscordStoredMessage = {
      id: snowflake(),
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
      timestamp: new Date().toISOString(),
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
