import { upstreamVariable } from '@app/plugin-kit';
import type { AxiosInstance } from 'axios';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { DiscordWebhook } from './discord-settings.js';
import { withHint } from '../../shared/upstream-hints.js';
import type { DiscordMessage } from './discord-message.js';
import { replyFields } from '../../shared/reply-fields.js';

/** The parts of a message object the plugin reads (https://discord.com/developers/docs/resources/message). */
export interface DiscordPosted {
  id: string;
  channel_id: string;
}

/** Discord's error body: `{message, code}` (plus `errors` for a 400, `retry_after` for a 429). */
export function describeDiscordError(data: unknown): string | undefined {
  const d = data as { message?: unknown; code?: unknown } | undefined;
  if (typeof d?.message !== 'string') return undefined;
  return typeof d.code === 'number' ? `${d.message} (code ${d.code})` : d.message;
}

export interface SendOptions {
  /** An existing thread of the webhook's channel. */
  threadId?: string;
  /** Forum channels: a new post with this title. */
  threadName?: string;
  file?: { filename: string; content: string };
}

/**
 * One channel webhook: execute (`?wait=true`, so Discord answers with the message and its id) and edit
 * (`PATCH /messages/{id}`). The URL's token is the credential: it lives in the client's base URL only, so
 * request paths in messages never carry it.
 */
export class DiscordWebhookClient {
  private readonly http: AxiosInstance;

  constructor(
    readonly name: string,
    webhook: DiscordWebhook,
    timeoutMs: number,
  ) {
    this.http = createUpstreamClient({
      upstream: 'discord',
      baseURL: `${webhook.apiUrl}/webhooks/${webhook.id}/${webhook.token}`,
      timeoutMs,
      describe: (response) => describeDiscordError(response.data),
    });
  }

  private get hints() {
    const variable = upstreamVariable({ prefix: 'DISCORD' }, this.name, 'WEBHOOK_URL');
    return {
      401: `webhook "${this.name}" was refused: its URL is wrong or was regenerated; the admin copies it again into ${variable}`,
      404: `webhook "${this.name}" was deleted, or the message or thread is not in its channel (the admin checks ${variable})`,
    };
  }

  send(message: DiscordMessage, options: SendOptions): Promise<DiscordPosted> {
    const params = { wait: true, ...(options.threadId && { thread_id: options.threadId }) };
    const payload = { ...message, ...(options.threadName && { thread_name: options.threadName }) };
    return this.call('POST /', () => this.http.post('', body(payload, options.file), { params }));
  }

  edit(messageId: string, message: DiscordMessage, threadId?: string): Promise<DiscordPosted> {
    const params = threadId ? { thread_id: threadId } : {};
    return this.call(`PATCH /messages/${messageId}`, () =>
      this.http.patch(`/messages/${messageId}`, message, { params }),
    );
  }

  private async call(request: string, run: () => Promise<{ data: unknown }>): Promise<DiscordPosted> {
    let data: unknown;
    try {
      ({ data } = await run());
    } catch (err) {
      throw withHint(err, this.hints);
    }
    return replyFields('discord', request, data, { id: 'string', channel_id: 'string' });
  }
}

/** JSON, or with a file: multipart with `payload_json` and `files[0]`, the file described in `attachments`. */
function body(payload: object, file: SendOptions['file']): object | FormData {
  if (!file) return payload;
  const form = new FormData();
  form.append(
    'payload_json',
    JSON.stringify({ ...payload, attachments: [{ id: 0, filename: file.filename }] }),
  );
  form.append('files[0]', new Blob([file.content], { type: 'text/plain' }), file.filename);
  return form;
}
