import { upstreamVariable } from '@app/plugin-kit';
import type { AxiosInstance } from 'axios';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { GoogleChatWebhook } from './google-chat-settings.js';
import { withHint } from '../../shared/upstream-hints.js';
import { describeGoogleError } from './google-error.js';
import type { GoogleChatMessage } from './google-chat-message.js';
import { replyFields } from '../../shared/reply-fields.js';

/** What a webhook call answers: the message's and its thread's resource names. */
export interface GoogleChatPosted {
  name: string;
  thread?: { name?: string };
}

/**
 * A space's incoming webhook: spaces.messages.create with the webhook's `key` and `token` as query
 * parameters (they are the credential, so they stay out of request paths in messages), `requestId` so a
 * repeated call returns the message already created, and a thread by key or name.
 */
export class GoogleChatWebhookClient {
  private readonly http: AxiosInstance;

  constructor(
    readonly name: string,
    private readonly webhook: GoogleChatWebhook,
    timeoutMs: number,
  ) {
    this.http = createUpstreamClient({
      upstream: 'google chat',
      baseURL: `${webhook.origin}/v1/spaces/${webhook.space}`,
      timeoutMs,
      describe: (response) => describeGoogleError(response.data),
    });
  }

  get space(): string {
    return `spaces/${this.webhook.space}`;
  }

  async send(message: GoogleChatMessage, requestId: string, thread?: string): Promise<GoogleChatPosted> {
    const byName = thread?.startsWith('spaces/');
    const body = { ...message, ...(thread && { thread: byName ? { name: thread } : { threadKey: thread } }) };
    const params = {
      key: this.webhook.key,
      token: this.webhook.token,
      requestId,
      ...(thread && { messageReplyOption: 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' }),
    };
    let data: unknown;
    try {
      ({ data } = await this.http.post('/messages', body, { params }));
    } catch (err) {
      const variable = upstreamVariable({ prefix: 'GOOGLE_CHAT' }, this.name, 'WEBHOOK_URL');
      throw withHint(err, {
        401: `webhook "${this.name}" was refused: it was deleted or its URL is wrong; the admin copies it again into ${variable}`,
        403: `webhook "${this.name}" may not post in its space (webhooks turned off, or the space is gone); the admin checks ${variable}`,
        404: `the space of webhook "${this.name}" or the thread does not exist (the admin checks ${variable})`,
      });
    }
    return {
      ...(data as GoogleChatPosted),
      ...replyFields('google chat', 'POST /messages', data, { name: 'string' }),
    };
  }
}
