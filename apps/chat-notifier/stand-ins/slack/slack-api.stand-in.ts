import {
  credential,
  multipartParts,
  ProviderStandIn,
  type StandInRequest,
  type StandInResponse,
} from '@app/local-agent';
import type { MethodHandler } from './method-call.js';
import { chatGetPermalink, chatPostMessage, chatUpdate } from './methods/chat.js';
import {
  reactionsGet,
  usergroupsList,
  usergroupsUsersList,
  usersInfo,
  usersLookupByEmail,
} from './methods/approvals.js';
import { appendMessage } from './methods/chat.js';
import { conversationsHistory, conversationsList, conversationsReplies } from './methods/conversations.js';
import { filesCompleteUploadExternal, filesGetUploadUrlExternal } from './methods/files.js';
import { SlackArgs, SlackFailure } from './slack-args.js';
import {
  DEFAULT_BOT_SCOPES,
  slackId,
  Team,
  type Bot,
  type Channel,
  type Message,
  type Upload,
} from './slack-state.js';

/** One Web API call as the stand-in saw it, for exact counts in tests. */
export interface SlackApiCall {
  method: string;
  ok: boolean;
  error?: string;
  args: Record<string, unknown>;
  /** The bot whose token authenticated the call. */
  userId?: string;
  /** When the call came in (ms). */
  at: number;
}

/** What a scripted approver does once a request has been polled (reactions.get) `afterPolls` times. */
export type ApproverStep = { afterPolls: number } & (
  | { user: string; react: string }
  | { user: string; unreact: string }
  | { user: string; reply: string; bot?: boolean }
  | { user: string; edit: string }
  | { delete: true }
);

/** The scopes an approval gate's bot needs beyond the notifier's. */
export const APPROVAL_SCOPES = ['reactions:read', 'usergroups:read', 'users:read', 'users:read.email'];

/**
 * A local Slack Web API (https://docs.slack.dev/reference/methods) for the methods the plugin uses:
 * `POST /api/<method>` with the token as `Authorization: Bearer` (or a `token` form field), form-encoded or
 * JSON arguments, HTTP 200 with `{ok:false,error}` for failures (missing_scope with `needed`/`provided`),
 * 404 `unknown_method`, cursor paging, message metadata, the two-step file upload, and 429 + Retry-After on
 * demand. Several workspaces can live in one stand-in: a token belongs to one.
 */
export class SlackApiStandIn extends ProviderStandIn {
  readonly apiCalls: SlackApiCall[] = [];
  readonly uploads = new Map<string, Upload>();
  private readonly bots = new Map<string, Bot>();
  /** Largest page conversations.list hands out, whatever `limit` asks (Slack may return fewer than asked). */
  listPageCap = 1000;
  /**
   * People answering approval requests: each step runs when a request (any bot message polled with
   * reactions.get) has been polled that many times, so every request gets the same answers.
   */
  approverScript: ApproverStep[] = [];
  /** A script of their own for the requests of a channel (by channel ID), instead of `approverScript`. */
  readonly channelScripts = new Map<string, ApproverStep[]>();
  /**
   * Slack's per-method rate limits (calls per window and workspace, e.g. Tier 3: 50 a minute), answered with 429
   * and Retry-After past them; none unless set. `windowMs` is a minute, or less for a scaled-time test.
   */
  tierLimits?: { perWindow: Record<string, number>; windowMs: number };
  private readonly polls = new Map<string, number>();
  private readonly recent = new Map<string, number[]>();

  private readonly methods: Record<string, MethodHandler> = {
    'auth.test': (call) => ({
      url: `https://${call.team.domain}.slack.com/`,
      team: call.team.domain,
      user: 'argo-bot',
      team_id: call.team.id,
      user_id: call.bot.userId,
      bot_id: call.bot.botId,
    }),
    'conversations.list': conversationsList(() => this.listPageCap),
    'conversations.history': conversationsHistory,
    'conversations.replies': conversationsReplies,
    'chat.postMessage': chatPostMessage,
    'chat.update': chatUpdate,
    'chat.getPermalink': chatGetPermalink,
    'reactions.get': reactionsGet,
    'usergroups.list': usergroupsList,
    'usergroups.users.list': usergroupsUsersList,
    'users.info': usersInfo,
    'users.lookupByEmail': usersLookupByEmail,
    'files.getUploadURLExternal': filesGetUploadUrlExternal,
    'files.completeUploadExternal': filesCompleteUploadExternal,
  };

  constructor() {
    super('slack', (req) => ({
      status: 404,
      body: { ok: false, error: 'unknown_method', req_method: req.path.replace(/^\/api\//, '') },
    }));
    for (const method of Object.keys(this.methods)) {
      const handler = (req: StandInRequest) => this.handle(method, req);
      this.route('POST', `/api/${method}`, handler).route('GET', `/api/${method}`, handler);
    }
    this.route('POST', '/upload/v1/:id', (req) => this.receiveUpload(req));
  }

  /** The Web API base URL for SLACK_API_URL / the client's slackApiUrl. */
  get apiUrl(): string {
    return `${this.server.url}/api/`;
  }

  addTeam(domain: string): Team {
    return new Team(domain);
  }

  /** Installs a bot in `team` with `token`; returns its user ID (add it to channels to make it a member). */
  addBot(team: Team, token: string, scopes: string[] = DEFAULT_BOT_SCOPES): Bot {
    const bot: Bot = {
      token,
      userId: slackId('U'),
      botId: slackId('B'),
      appId: slackId('A'),
      team,
      scopes: new Set(scopes),
      revoked: false,
    };
    this.bots.set(token, bot);
    return bot;
  }

  /**
   * A person's user token (xoxp-) in `team`: what it posts is the person's (`user` is theirs, no bot_id), as
   * with an app that acts for a user. Scopes as a user token names them (`chat:write`).
   */
  addUserToken(team: Team, userId: string, token: string, scopes: string[] = ['chat:write']): Bot {
    const person: Bot = {
      token,
      userId,
      person: true,
      botId: '',
      appId: '',
      team,
      scopes: new Set(scopes),
      revoked: false,
    };
    this.bots.set(token, person);
    return person;
  }

  /**
   * The next `times` calls of `method` (about `channel`, when given) get 429 with Retry-After, as Slack's rate
   * limiter answers.
   */
  rateLimit(method: string, retryAfterSeconds: number, times = 1, channel?: Channel): void {
    this.rateLimitRoute(
      'POST',
      `/api/${method}`,
      retryAfterSeconds,
      { ok: false, error: 'ratelimited' },
      times,
      (req) =>
        !channel ||
        (req.query.get('channel') ?? (isRecord(req.body) ? req.body.channel : undefined)) === channel.id,
    );
  }

  /** The next `times` calls of `method` get this HTTP status (Slack's 5xx pages are not JSON). */
  httpError(method: string, status: number, times = 1): void {
    this.httpErrorRoute('POST', `/api/${method}`, status, times);
  }

  /** `user` adds the reaction `name` to a message (as reactions.add would). */
  react(channel: Channel, ts: string, user: string, name: string): void {
    const message = this.message(channel, ts);
    message.reactions ??= [];
    let reaction = message.reactions.find((r) => r.name === name);
    if (!reaction) message.reactions.push((reaction = { name, users: [] }));
    if (!reaction.users.includes(user)) reaction.users.push(user);
  }

  /** `user` takes the reaction back (reactions.remove); a reaction nobody has left is gone. */
  unreact(channel: Channel, ts: string, user: string, name: string): void {
    const message = this.message(channel, ts);
    const reaction = message.reactions?.find((r) => r.name === name);
    if (!reaction) return;
    reaction.users = reaction.users.filter((u) => u !== user);
    message.reactions = message.reactions!.filter((r) => r.users.length > 0);
  }

  /**
   * `user` replies in the message's thread (a bot reply carries bot_id). What a person types is kept as Slack
   * keeps it: `&`, `<`, `>` escaped as `&amp;`, `&lt;`, `&gt;`.
   */
  reply(channel: Channel, ts: string, user: string, text: string, options: { bot?: boolean } = {}): Message {
    const root = this.message(channel, ts);
    const message: Message = {
      type: 'message',
      ts: this.nextTs(channel),
      user,
      text: text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
      ...(options.bot && { bot_id: slackId('B') }),
      origin: 'person',
      edits: 0,
    };
    appendMessage(channel, message, root);
    return message;
  }

  /** Someone other than the author edits a message (a workspace admin, say). */
  editAs(channel: Channel, ts: string, user: string, text: string): void {
    const message = this.message(channel, ts);
    message.text = text;
    message.edits++;
    message.edited = { user, ts: this.nextTs(channel) };
  }

  /** chat.delete as Slack does it: a parent with replies stays as a tombstone, any other message goes. */
  deleteMessage(channel: Channel, ts: string): void {
    const message = this.message(channel, ts);
    if ((message.reply_count ?? 0) > 0) {
      Object.assign(message, { subtype: 'tombstone', text: 'This message was deleted.', user: 'USLACKBOT' });
      delete message.reactions;
      delete message.metadata;
    } else channel.messages.splice(channel.messages.indexOf(message), 1);
  }

  /** The most times a request of `channel` has been polled with reactions.get (while it existed). */
  pollsIn(channel: Channel): number {
    let most = 0;
    for (const [id, polls] of this.polls) if (id.startsWith(`${channel.id}/`)) most = Math.max(most, polls);
    return most;
  }

  /** Successful calls of `method`. */
  okCalls(method: string): SlackApiCall[] {
    return this.apiCalls.filter((c) => c.method === method && c.ok);
  }

  /** Messages in a channel (thread replies included), as stored. */
  messages(channel: Channel): Message[] {
    return channel.messages;
  }

  /** Messages the bots posted with chat.postMessage in `channel`. */
  posts(channel: Channel): Message[] {
    return channel.messages.filter((m) => m.origin === 'chat.postMessage');
  }

  /** File-share messages in `channel`. */
  fileShares(channel: Channel): Message[] {
    return channel.messages.filter((m) => m.origin === 'files.completeUploadExternal');
  }

  private message(channel: Channel, ts: string): Message {
    const message = channel.messages.find((m) => m.ts === ts);
    if (!message) throw new Error(`stand-in: no message ${ts} in #${channel.name}`);
    return message;
  }

  private nextTs(channel: Channel): string {
    return this.teamOf(channel).nextTs();
  }

  private teamOf(channel: Channel): Team {
    for (const bot of this.bots.values()) if (bot.team.channels.get(channel.id) === channel) return bot.team;
    throw new Error(`stand-in: #${channel.name} is in no team with a bot`);
  }

  /** The scripted approvers' steps due at this poll of a request. */
  private runApprovers(bot: Bot, args: SlackArgs): void {
    const channel = bot.team.channels.get(args.string('channel') ?? '');
    const ts = args.string('timestamp') ?? '';
    const message = channel?.messages.find((m) => m.ts === ts && m.bot_id !== undefined);
    if (!channel || !message) return;
    const id = `${channel.id}/${ts}`;
    const polls = (this.polls.get(id) ?? 0) + 1;
    this.polls.set(id, polls);
    const script = this.channelScripts.get(channel.id) ?? this.approverScript;
    for (const step of script.filter((s) => s.afterPolls === polls)) {
      if ('delete' in step) this.deleteMessage(channel, ts);
      else if ('react' in step) this.react(channel, ts, step.user, step.react);
      else if ('unreact' in step) this.unreact(channel, ts, step.user, step.unreact);
      else if ('reply' in step) this.reply(channel, ts, step.user, step.reply, { bot: step.bot });
      else this.editAs(channel, ts, step.user, step.edit);
    }
  }

  /** Retry-After seconds when `method` is past its limit in the window, else undefined (and the call counts). */
  private overLimit(method: string, now: number): number | undefined {
    const limit = this.tierLimits?.perWindow[method];
    if (limit === undefined) return undefined;
    const windowMs = this.tierLimits!.windowMs;
    const recent = (this.recent.get(method) ?? []).filter((t) => t > now - windowMs);
    this.recent.set(method, recent);
    if (recent.length >= limit) return Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000));
    recent.push(now);
    return undefined;
  }

  private handle(method: string, req: StandInRequest): StandInResponse {
    const values = { ...Object.fromEntries(req.query), ...(isRecord(req.body) ? req.body : {}) };
    const record: SlackApiCall = { method, ok: false, args: withoutToken(values), at: Date.now() };
    this.apiCalls.push(record);
    const isJson = (req.headers['content-type'] ?? '').startsWith('application/json');
    // Slack reads a token from the body only in form posts; JSON bodies must use the header.
    const token =
      credential(req, 'Bearer') ??
      (isJson ? undefined : typeof values.token === 'string' ? values.token : undefined);
    const bot = token ? this.bots.get(token) : undefined;
    const fail = (
      error: string,
      extra: Record<string, unknown> = {},
      headers: Record<string, string> = {},
    ): StandInResponse => {
      record.error = error;
      return { status: 200, headers, body: { ok: false, error, ...extra } };
    };
    if (!token) return fail('not_authed');
    if (!bot) return fail('invalid_auth');
    if (bot.revoked) return fail('token_revoked');
    record.userId = bot.userId;
    const scopes = { 'x-oauth-scopes': [...bot.scopes].join(',') };
    const retryAfter = this.overLimit(method, record.at);
    if (retryAfter !== undefined) {
      record.error = 'ratelimited';
      return {
        status: 429,
        headers: { 'Retry-After': String(retryAfter) },
        body: { ok: false, error: 'ratelimited' },
      };
    }
    if (method === 'reactions.get') this.runApprovers(bot, new SlackArgs(values));
    try {
      const result = this.methods[method]({
        args: new SlackArgs(values),
        bot,
        team: bot.team,
        uploads: this.uploads,
        baseUrl: this.server.url,
      });
      record.ok = true;
      return { status: 200, headers: scopes, body: { ok: true, ...result } };
    } catch (err) {
      if (err instanceof SlackFailure) return fail(err.error, err.extra, scopes);
      throw err;
    }
  }

  /** Step 2 of the upload: the bytes, raw or multipart (Slack takes both). No token needed: the URL is pre-signed. */
  private receiveUpload(req: StandInRequest): StandInResponse {
    const upload = this.uploads.get(req.params.id);
    if (!upload) return { status: 404, body: 'Not Found' };
    upload.content = multipartParts(req)?.[0]?.content ?? req.text;
    upload.sentAuthorization = req.headers.authorization !== undefined;
    return {
      status: 200,
      headers: { 'Content-Type': 'text/plain' },
      body: `OK - ${Buffer.byteLength(upload.content)}`,
    };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutToken(values: Record<string, unknown>): Record<string, unknown> {
  const { token: _token, ...rest } = values;
  return rest;
}
