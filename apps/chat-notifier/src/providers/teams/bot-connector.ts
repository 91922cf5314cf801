import type { AxiosInstance } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { withHint } from '../../shared/upstream-hints.js';
import type { TeamsActivity } from './adaptive-card.js';
import type { BotFrameworkToken } from './bot-framework-token.js';
import { replyFields } from '../../shared/reply-fields.js';

/** Create Conversation's answer: the new conversation (a channel thread: `<channel>;messageid=<id>`) and its first activity. */
export interface ConversationResource {
  id: string;
  activityId: string;
}

/** The Bot Framework's error body: `{error: {code, message}}`; a refused token gets `{message}`. */
function describe(data: unknown): string | undefined {
  const d = data as { error?: { code?: unknown; message?: unknown }; message?: unknown } | undefined;
  const e = d?.error;
  if (typeof e?.message === 'string')
    return typeof e.code === 'string' ? `${e.message} (${e.code})` : e.message;
  return typeof d?.message === 'string' ? d.message : undefined;
}

const HINTS = {
  401: 'the connector refused the bot: the admin checks TEAMS_BOT_APP_ID and that the Azure Bot has its Microsoft Teams channel turned on',
  403: 'the bot must be added to the team that holds the channel (install its Teams app in the team), and the tenant admin must allow it',
  404: 'no such channel, conversation or message for this bot: check the channel id, or the id/conversation output it came from',
  413: 'the card is larger than Teams takes (about 28 KB): shorten the text or the fields',
};

/**
 * The Bot Framework connector (`{serviceUrl}/v3/conversations…`) with the bot's token: start a channel
 * thread, post into a conversation (a reply when it names a thread), and replace an activity.
 */
export class BotConnector {
  private readonly http: AxiosInstance;

  constructor(
    serviceUrl: string,
    timeoutMs: number,
    private readonly token: BotFrameworkToken,
  ) {
    this.http = createUpstreamClient({
      upstream: 'teams bot',
      baseURL: serviceUrl,
      timeoutMs,
      describe: (response) => describe(response.data),
      // 412 PreconditionFailed: concurrent operations on the conversation; Teams asks for a retry.
      transient: (response) => response.status === 412,
    });
  }

  /** POST /v3/conversations: a new thread in `channel`, the card as its first message. */
  async createThread(
    channel: string,
    tenant: string | undefined,
    activity: TeamsActivity,
  ): Promise<ConversationResource> {
    const data = await this.call('post', '/v3/conversations', {
      isGroup: true,
      channelData: { channel: { id: channel }, ...(tenant && { tenant: { id: tenant } }) },
      activity,
    });
    return replyFields('teams bot', 'POST /v3/conversations', data, { id: 'string', activityId: 'string' });
  }

  /** POST …/activities/{replyTo} (a reply) or …/activities (to the end of the conversation); the new activity's id. */
  async send(conversation: string, activity: TeamsActivity, replyTo?: string): Promise<string> {
    const path = `/v3/conversations/${encodeURIComponent(conversation)}/activities${replyTo ? `/${replyTo}` : ''}`;
    const data = await this.call('post', path, { ...activity, ...(replyTo && { replyToId: replyTo }) });
    return replyFields('teams bot', `POST ${path}`, data, { id: 'string' }).id;
  }

  /** PUT …/activities/{id}: the message replaced in place (same id). */
  async update(conversation: string, id: string, activity: TeamsActivity): Promise<void> {
    await this.call('put', `/v3/conversations/${encodeURIComponent(conversation)}/activities/${id}`, {
      ...activity,
      id,
    });
  }

  /** One call with the bot's token; a refused token (revoked, expired early) is renewed and the call made once more. */
  private async call<T>(method: 'post' | 'put', path: string, body: unknown, renewed = false): Promise<T> {
    const token = await this.token.get();
    try {
      return (
        await this.http.request<T>({
          method,
          url: path,
          data: body,
          headers: { Authorization: `Bearer ${token}` },
        })
      ).data;
    } catch (err) {
      // A 401 means the connector did nothing, so asking again cannot send twice.
      if (err instanceof UpstreamError && err.status === 401) {
        this.token.drop(token);
        if (!renewed) return this.call(method, path, body, true);
      }
      throw withHint(err, HINTS);
    }
  }
}
