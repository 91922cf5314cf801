import { randomBytes } from 'node:crypto';
import { ProviderStandIn, type StandInRequest, type StandInResponse } from '@app/local-agent';
import { GoogleOAuthStandIn, type IssuedToken, type ServiceAccountKeyFile } from './google-oauth.js';

export interface ChatSpace {
  id: string;
  webhookKey: string;
  webhookToken: string;
  /** E-mail addresses of the service accounts of the Chat apps added to the space. */
  apps: Set<string>;
}

export interface ChatMessage {
  name: string;
  text?: string;
  cardsV2?: unknown[];
  thread: { name: string; threadKey?: string };
  requestId?: string;
  createTime: string;
  /** App mode: the ID the app chose (`client-…`), and the app that sent it. */
  clientAssignedMessageId?: string;
  app?: string;
  lastUpdateTime?: string;
}

/** Google's error body (google.rpc.Status as JSON). */
const error = (code: number, status: string, message: string): StandInResponse => ({
  status: code,
  body: { error: { code, message, status } },
});

/** Messages, cards included, are limited to 32,000 bytes. */
const MAX_BYTES = 32_000;
const REPLY_OPTIONS = [
  'MESSAGE_REPLY_OPTION_UNSPECIFIED',
  'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD',
  'REPLY_MESSAGE_OR_FAIL',
];

const fail = (code: number, status: string, message: string) => ({ fail: error(code, status, message) });

const CHAT_BOT_SCOPE = 'https://www.googleapis.com/auth/chat.bot';
/** A client-assigned message ID: `client-`, then lower-case letters, digits and hyphens, 63 characters at most. */
const CLIENT_ID = /^client-[a-z0-9-]+$/;
/** The Message fields an update mask may name. */
const UPDATABLE = [
  'text',
  'attachment',
  'cards',
  'cardsV2',
  'accessoryWidgets',
  'quotedMessageMetadata',
  '*',
];

type Body = { text?: unknown; cardsV2?: unknown; thread?: { threadKey?: unknown; name?: unknown } };

const id = (bytes = 8) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');

/**
 * Google Chat incoming webhooks (https://developers.google.com/workspace/chat/quickstart/webhooks): the
 * spaces.messages.create method with the webhook's `key` and `token` as query parameters. Text and cards v2,
 * threads by `thread.threadKey` or `thread.name` with `messageReplyOption` (unspecified starts a new
 * thread; FALLBACK_TO_NEW_THREAD replies or starts one; OR_FAIL fails with 404 without the thread),
 * `requestId` returns the message already created with it, 32,000-byte limit. A webhook's answer holds the
 * request's fields plus `name` and `thread.name`. Errors are Google's `{error: {code, message, status}}`.
 *
 * Chat apps (https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages): the same
 * create with a bearer token of a service account (scope chat.bot) whose app is a member of the space, and
 * `messageId` (`client-…`, unique in the space: a second create with it is 409 ALREADY_EXISTS); `GET` of a
 * message by its name or client-assigned ID; `PATCH` with `updateMask` (the named fields are replaced, a
 * named field the body leaves out is cleared) of the app's own messages. Tokens come from the Google OAuth
 * stand-in served at `/token`.
 */
export class GoogleChatStandIn extends ProviderStandIn {
  readonly spaces = new Map<string, ChatSpace>();
  readonly messages: ChatMessage[] = [];
  readonly oauth = new GoogleOAuthStandIn(() => `${this.url}/token`);

  constructor() {
    super('google-chat', () => error(404, 'NOT_FOUND', 'Requested entity was not found.'));
    this.route('POST', '/token', (req) => this.oauth.token(req));
    this.route('POST', '/v1/spaces/:space/messages', (req) => this.create(req));
    this.route('GET', '/v1/spaces/:space/messages/:message', (req) => this.get(req));
    this.route('PATCH', '/v1/spaces/:space/messages/:message', (req) => this.patch(req));
  }

  /** A space with an incoming webhook; returns the webhook URL the admin copies. */
  addSpace(spaceId = `AAAA${id(6)}`): { space: ChatSpace; url: string } {
    const space = {
      id: spaceId,
      webhookKey: `AIzaSy${id(24)}`,
      webhookToken: id(32),
      apps: new Set<string>(),
    };
    this.spaces.set(space.id, space);
    return {
      space,
      url: `${this.url}/v1/spaces/${space.id}/messages?key=${space.webhookKey}&token=${encodeURIComponent(space.webhookToken)}`,
    };
  }

  /** A Chat app backed by a new service account, added to `spaces`: its key file. */
  addApp(...spaces: ChatSpace[]): ServiceAccountKeyFile {
    const key = this.oauth.addServiceAccount();
    for (const space of spaces) space.apps.add(key.client_email);
    return key;
  }

  in(space: ChatSpace): ChatMessage[] {
    return this.messages.filter((m) => m.name.startsWith(`spaces/${space.id}/`));
  }

  /** 429 as Google answers a webhook sending faster than one message per second per space (no Retry-After). */
  rateLimitNext(times = 1): void {
    this.server.faults.add(
      {
        kind: 'status',
        status: 429,
        body: {
          error: {
            code: 429,
            message: 'Resource has been exhausted (e.g. check quota).',
            status: 'RESOURCE_EXHAUSTED',
          },
        },
      },
      { times, match: (r) => r.method === 'POST' && r.path.endsWith('/messages') },
    );
  }

  private create(req: StandInRequest): StandInResponse {
    const space = this.spaces.get(req.params.space);
    if (req.headers.authorization !== undefined) return this.createAsApp(req, space);
    if (!space) return error(404, 'NOT_FOUND', 'Requested entity was not found.');
    if (req.query.get('key') !== space.webhookKey)
      return error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    if (req.query.get('token') !== space.webhookToken)
      return error(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    const checked = this.checkBody(req);
    if ('fail' in checked) return checked.fail;
    const requestId = req.query.get('requestId') ?? undefined;
    const earlier = requestId && this.in(space).find((m) => m.requestId === requestId);
    if (earlier) return { body: earlier };
    const posted = this.post(req, space, checked.body);
    if ('fail' in posted) return posted.fail;
    const { requestId: _r, ...shown } = posted.message;
    return { body: shown };
  }

  private createAsApp(req: StandInRequest, space: ChatSpace | undefined): StandInResponse {
    const auth = this.appAuth(req, space);
    if ('fail' in auth) return auth.fail;
    const checked = this.checkBody(req);
    if ('fail' in checked) return checked.fail;
    const messageId = req.query.get('messageId') ?? undefined;
    if (messageId !== undefined && (!CLIENT_ID.test(messageId) || messageId.length > 63))
      return error(
        400,
        'INVALID_ARGUMENT',
        'Invalid message ID: a custom ID starts with client-, has at most 63 characters and only lower-case letters, digits and hyphens.',
      );
    const inSpace = this.in(auth.space);
    if (messageId && inSpace.some((m) => m.clientAssignedMessageId === messageId))
      return error(409, 'ALREADY_EXISTS', `Message with ID ${messageId} already exists in the space.`);
    const requestId = req.query.get('requestId') ?? undefined;
    const earlier = requestId && inSpace.find((m) => m.requestId === requestId && m.app === auth.email);
    if (earlier) return { body: this.view(earlier) };
    const posted = this.post(req, auth.space, checked.body);
    if ('fail' in posted) return posted.fail;
    const { message } = posted;
    message.app = auth.email;
    if (messageId) message.clientAssignedMessageId = messageId;
    return { body: this.view(message) };
  }

  private get(req: StandInRequest): StandInResponse {
    const auth = this.appAuth(req, this.spaces.get(req.params.space));
    if ('fail' in auth) return auth.fail;
    const message = this.find(auth.space, req.params.message!);
    return message ? { body: this.view(message) } : error(404, 'NOT_FOUND', 'Message not found.');
  }

  private patch(req: StandInRequest): StandInResponse {
    const auth = this.appAuth(req, this.spaces.get(req.params.space));
    if ('fail' in auth) return auth.fail;
    const mask = (req.query.get('updateMask') ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    if (mask.length === 0)
      return error(400, 'INVALID_ARGUMENT', 'Request must contain a non-empty update mask.');
    const unknown = mask.find((p) => !UPDATABLE.includes(p));
    if (unknown) return error(400, 'INVALID_ARGUMENT', `Invalid update mask path: ${unknown}`);
    const message = this.find(auth.space, req.params.message!);
    if (!message) return error(404, 'NOT_FOUND', 'Message not found.');
    if (message.app !== auth.email)
      return error(403, 'PERMISSION_DENIED', 'The caller does not have permission to update this message.');
    if (Buffer.byteLength(req.text) > MAX_BYTES)
      return error(400, 'INVALID_ARGUMENT', 'Message exceeds the maximum size of 32,000 bytes.');
    const body = req.body as Body | undefined;
    if (!body) return error(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    const all = mask.includes('*');
    const text = all || mask.includes('text') ? body.text : message.text;
    const cards = all || mask.includes('cardsV2') ? body.cardsV2 : message.cardsV2;
    if ((typeof text !== 'string' || text === '') && !Array.isArray(cards))
      return error(400, 'INVALID_ARGUMENT', 'Message cannot be empty.');
    if (typeof text === 'string' && text !== '') message.text = text;
    else delete message.text;
    if (Array.isArray(cards)) message.cardsV2 = cards as unknown[];
    else delete message.cardsV2;
    message.lastUpdateTime = new Date().toISOString();
    return { body: this.view(message) };
  }

  /** The space and the app calling, or the error Google answers: no token, a token without chat.bot, an app not in the space. */
  private appAuth(
    req: StandInRequest,
    space: ChatSpace | undefined,
  ): { space: ChatSpace; email: string } | { fail: StandInResponse } {
    const holder: IssuedToken | undefined = this.oauth.holder(String(req.headers.authorization ?? ''));
    if (!holder)
      return fail(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    if (!holder.scopes.includes(CHAT_BOT_SCOPE))
      return fail(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
    if (!space) return fail(404, 'NOT_FOUND', 'Requested entity was not found.');
    if (!space.apps.has(holder.email))
      return fail(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    return { space, email: holder.email };
  }

  /** A message of the space by its ID or its client-assigned ID. */
  private find(space: ChatSpace, messageId: string): ChatMessage | undefined {
    const name = `spaces/${space.id}/messages/${messageId}`;
    return this.in(space).find((m) => m.name === name || m.clientAssignedMessageId === messageId);
  }

  /** A message as the API shows it to an app. */
  private view(m: ChatMessage): Record<string, unknown> {
    const { requestId: _r, app, ...shown } = m;
    return {
      ...shown,
      sender: { name: `users/${app ?? 'webhook'}`, type: 'BOT' },
      space: { name: m.name.split('/messages/')[0] },
    };
  }

  /** The size limit, a JSON body, text or cards. */
  private checkBody(req: StandInRequest): { body: Body } | { fail: StandInResponse } {
    if (Buffer.byteLength(req.text) > MAX_BYTES)
      return fail(400, 'INVALID_ARGUMENT', 'Message exceeds the maximum size of 32,000 bytes.');
    const body = req.body as Body | undefined;
    if (!body) return fail(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    if ((typeof body.text !== 'string' || body.text === '') && !Array.isArray(body.cardsV2))
      return fail(
        400,
        'INVALID_ARGUMENT',
        'Message cannot be empty. Discarded message should be an empty message.',
      );
    return { body };
  }

  /** Stores a new message in its thread (by key or name, per messageReplyOption). */
  private post(
    req: StandInRequest,
    space: ChatSpace,
    body: Body,
  ): { message: ChatMessage } | { fail: StandInResponse } {
    const requestId = req.query.get('requestId') ?? undefined;
    const option = req.query.get('messageReplyOption') ?? 'MESSAGE_REPLY_OPTION_UNSPECIFIED';
    if (!REPLY_OPTIONS.includes(option))
      return fail(400, 'INVALID_ARGUMENT', `Invalid value at 'message_reply_option' (${option})`);
    const threadKey = typeof body.thread?.threadKey === 'string' ? body.thread.threadKey : undefined;
    const threadName = typeof body.thread?.name === 'string' ? body.thread.name : undefined;
    let thread: ChatMessage['thread'] | undefined;
    if (option !== 'MESSAGE_REPLY_OPTION_UNSPECIFIED' && (threadKey || threadName)) {
      const found = this.in(space).find((m) =>
        threadName ? m.thread.name === threadName : m.thread.threadKey === threadKey,
      );
      if (found) thread = found.thread;
      else if (option === 'REPLY_MESSAGE_OR_FAIL') return fail(404, 'NOT_FOUND', 'Thread not found.');
      else if (threadName && !threadName.startsWith(`spaces/${space.id}/threads/`))
        return fail(400, 'INVALID_ARGUMENT', 'Thread name does not belong to the space.');
    }
    thread ??= { name: `spaces/${space.id}/threads/${id()}`, ...(threadKey && { threadKey }) };
    const message: ChatMessage = {
      name: `spaces/${space.id}/messages/${id()}.${id()}`,
      ...(typeof body.text === 'string' && { text: body.text }),
      ...(Array.isArray(body.cardsV2) && { cardsV2: body.cardsV2 }),
      thread,
      requestId,
      createTime: new Date().toISOString(),
    };
    this.messages.push(message);
    return { message };
  }
}
