import type { AxiosInstance } from 'axios';
import { PluginConfigError, UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { withHint } from '../../shared/upstream-hints.js';
import type { GoogleChatMessage } from './google-chat-message.js';
import type { GoogleChatPosted } from './google-chat-webhook.js';
import { describeGoogleError } from './google-error.js';
import { isChatResourceName, type ChatResource } from './google-chat-names.js';
import type { ServiceAccountTokens } from './service-account-token.js';
import { replyFields } from '../../shared/reply-fields.js';

/** A message as the Chat API answers it (the fields the notifier reads). */
export interface GoogleChatAppMessage extends GoogleChatPosted {
  clientAssignedMessageId?: string;
}

const SETTING = 'GOOGLE_CHAT_SERVICE_ACCOUNT_JSON';

/**
 * The Chat API with app authentication (a service account's token with the chat.bot scope): create a
 * message under a client-assigned ID, read it back by that ID, update its text and cards.
 */
export class GoogleChatAppClient {
  private readonly http: AxiosInstance;

  constructor(
    apiUrl: string,
    private readonly tokens: ServiceAccountTokens,
    private readonly appEmail: string,
    timeoutMs: number,
  ) {
    this.http = createUpstreamClient({
      upstream: 'google chat',
      baseURL: apiUrl,
      timeoutMs,
      describe: (response) => describeGoogleError(response.data),
    });
  }

  /**
   * Creates the message with the ID `messageId` (`client-…`), or returns the one created with it before:
   * Google answers a second create with the same ID 409 ALREADY_EXISTS, and the message is read back by it.
   */
  async create(
    space: string,
    messageId: string,
    message: GoogleChatMessage,
    thread?: string,
  ): Promise<GoogleChatAppMessage> {
    checkName(space, 'space');
    const byName = thread?.startsWith('spaces/');
    const body = { ...message, ...(thread && { thread: byName ? { name: thread } : { threadKey: thread } }) };
    const params = {
      messageId,
      ...(thread && { messageReplyOption: 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' }),
    };
    try {
      return await this.call<GoogleChatAppMessage>(space, {
        method: 'POST',
        url: `/v1/${space}/messages`,
        data: body,
        params,
      });
    } catch (err) {
      if (!(err instanceof UpstreamError) || err.status !== 409) throw err;
      return this.call<GoogleChatAppMessage>(space, {
        method: 'GET',
        url: `/v1/${space}/messages/${messageId}`,
      });
    }
  }

  /** Replaces the text and the cards of a message the app sent (a field the message leaves out is cleared). */
  update(name: string, message: GoogleChatMessage): Promise<GoogleChatAppMessage> {
    checkName(name, 'message');
    const space = name.split('/messages/')[0]!;
    return this.call<GoogleChatAppMessage>(
      space,
      { method: 'PATCH', url: `/v1/${name}`, data: message, params: { updateMask: 'text,cardsV2' } },
      `message ${name} does not exist (deleted?) or was not sent by this app`,
    );
  }

  private async call<T>(
    space: string,
    request: { method: string; url: string; data?: unknown; params?: Record<string, string> },
    notFound = `${space} does not exist, or the Chat app ${this.appEmail} is not a member of it`,
  ): Promise<T> {
    const token = await this.tokens.token();
    let data: unknown;
    try {
      ({ data } = await this.http.request({ ...request, headers: { Authorization: `Bearer ${token}` } }));
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 401) this.tokens.forget();
      throw withHint(err, {
        401: `the Chat API refused the token of ${this.appEmail} (key disabled, or the Chat API is not enabled in its project); the admin checks ${SETTING}`,
        403: `the Chat app ${this.appEmail} may not post in ${space}: add the app to the space (or the service account is not the Chat app's); the admin checks ${SETTING}`,
        404: notFound,
      });
    }
    // Every call answers a message, whose name the outputs carry.
    return {
      ...(data as T),
      ...replyFields('google chat', `${request.method} ${request.url}`, data, { name: 'string' }),
    };
  }
}

/** A name that goes into a URL path with the app's token: never one the API's shape does not allow. */
function checkName(name: string, resource: ChatResource): void {
  if (!isChatResourceName(name, resource))
    throw new PluginConfigError(
      `${resource === 'space' ? 'space' : 'update'}: ${name} is not a ${resource} name of the Chat API`,
    );
}
