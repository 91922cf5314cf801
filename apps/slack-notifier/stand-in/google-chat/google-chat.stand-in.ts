import { randomBytes } from 'node:crypto';
import type { StandInRequest, StandInResponse } from '@app/testing';
import { ProviderStandIn } from '../provider-stand-in.js';

export interface ChatSpace {
  id: string;
  webhookKey: string;
  webhookToken: string;
}

export interface ChatMessage {
  name: string;
  text?: string;
  cardsV2?: unknown[];
  thread: { name: string; threadKey?: string };
  requestId?: string;
  createTime: string;
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

const id = (bytes = 8) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');

/**
 * Google Chat incoming webhooks (https://developers.google.com/workspace/chat/quickstart/webhooks): the
 * spaces.messages.create method with the webhook's `key` and `token` as query parameters. Text and cards v2,
 * threads by `thread.threadKey` or `thread.name` with `messageReplyOption` (unspecified starts a new
 * thread; FALLBACK_TO_NEW_THREAD replies or starts one; OR_FAIL fails with 404 without the thread),
 * `requestId` returns the message already created with it, 32,000-byte limit. A webhook's answer holds the
 * request's fields plus `name` and `thread.name`. Errors are Google's `{error: {code, message, status}}`.
 */
export class GoogleChatStandIn extends ProviderStandIn {
  readonly spaces = new Map<string, ChatSpace>();
  readonly messages: ChatMessage[] = [];

  constructor() {
    super('google-chat', () => error(404, 'NOT_FOUND', 'Requested entity was not found.'));
    this.route('POST', '/v1/spaces/:space/messages', (req) => this.create(req));
  }

  /** A space with an incoming webhook; returns the webhook URL the admin copies. */
  addSpace(): { space: ChatSpace; url: string } {
    const space = { id: `AAAA${id(6)}`, webhookKey: `AIzaSy${id(24)}`, webhookToken: id(32) };
    this.spaces.set(space.id, space);
    return {
      space,
      url: `${this.url}/v1/spaces/${space.id}/messages?key=${space.webhookKey}&token=${encodeURIComponent(space.webhookToken)}`,
    };
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
    if (!space) return error(404, 'NOT_FOUND', 'Requested entity was not found.');
    if (req.query.get('key') !== space.webhookKey)
      return error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    if (req.query.get('token') !== space.webhookToken)
      return error(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    if (Buffer.byteLength(req.text) > MAX_BYTES)
      return error(400, 'INVALID_ARGUMENT', 'Message exceeds the maximum size of 32,000 bytes.');
    const body = req.body as
      { text?: unknown; cardsV2?: unknown; thread?: { threadKey?: unknown; name?: unknown } } | undefined;
    if (!body) return error(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    if ((typeof body.text !== 'string' || body.text === '') && !Array.isArray(body.cardsV2))
      return error(
        400,
        'INVALID_ARGUMENT',
        'Message cannot be empty. Discarded message should be an empty message.',
      );
    const requestId = req.query.get('requestId') ?? undefined;
    const earlier = requestId && this.in(space).find((m) => m.requestId === requestId);
    if (earlier) return { body: earlier };
    const option = req.query.get('messageReplyOption') ?? 'MESSAGE_REPLY_OPTION_UNSPECIFIED';
    if (!REPLY_OPTIONS.includes(option))
      return error(400, 'INVALID_ARGUMENT', `Invalid value at 'message_reply_option' (${option})`);
    const threadKey = typeof body.thread?.threadKey === 'string' ? body.thread.threadKey : undefined;
    const threadName = typeof body.thread?.name === 'string' ? body.thread.name : undefined;
    let thread: ChatMessage['thread'] | undefined;
    if (option !== 'MESSAGE_REPLY_OPTION_UNSPECIFIED' && (threadKey || threadName)) {
      const found = this.in(space).find((m) =>
        threadName ? m.thread.name === threadName : m.thread.threadKey === threadKey,
      );
      if (found) thread = found.thread;
      else if (option === 'REPLY_MESSAGE_OR_FAIL') return error(404, 'NOT_FOUND', 'Thread not found.');
      else if (threadName && !threadName.startsWith(`spaces/${space.id}/threads/`))
        return error(400, 'INVALID_ARGUMENT', 'Thread name does not belong to the space.');
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
    const { requestId: _r, ...shown } = message;
    return { body: shown };
  }
}
