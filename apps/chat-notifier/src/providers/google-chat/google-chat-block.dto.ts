import { IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { MessageContent } from '../../shared/message-content.dto.js';
import { EmptyAsAbsent, AdminChoice, Mentions } from '../../shared/body-fields.js';
import { isChatResourceName, type ChatResource } from './google-chat-names.js';
/** `users/<id>` (a person, by the numeric ID of their Google account) or `all`. */
export const GOOGLE_CHAT_MENTION = /^(?:users\/\d{5,30}|all)$/;

/** A resource name of the Chat API of that kind, checked segment by segment (google-chat-names.ts). */
function IsChatResourceName(
  resource: ChatResource,
  message: string,
  when = (_: string) => true,
): PropertyDecorator {
  return ValidateBy({
    name: `isChat${resource}Name`,
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && (!when(value) || isChatResourceName(value, resource)),
      defaultMessage: () => message,
    },
  });
}

/**
 * `notify: {googleChat: {...}}`: a message (a card in the status colour when there is a status, a title or
 * fields) through a space's incoming webhook, in a thread when `thread` is given; with `space` or `update`,
 * through the Chat app of the admin's service account, which can also update a message in place.
 */
export class GoogleChatConfig extends MessageContent {
  /**
   * Reply in this thread: a thread name (`spaces/…/threads/…`, the `thread` output of an earlier step) or a
   * key of your choosing (e.g. `{{workflow.name}}`): every message with the same key lands in one thread.
   */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  @IsChatResourceName(
    'thread',
    'must be a thread name such as spaces/AAAAbCdEfGh/threads/… (the thread output of an earlier step), or a key that does not start with spaces/',
    (thread) => thread.startsWith('spaces/'),
  )
  thread?: string;

  /** Who to notify: users/<id> or all. */
  @Mentions({
    name: 'isGoogleChatMentions',
    pattern: GOOGLE_CHAT_MENTION,
    normalise: (m) => m.replace(/^<(users\/[^>]+)>$/, '$1').replace(/^<?users\/all>?$|^@?all$/, 'all'),
    message:
      'must be up to 50 of users/<numeric user ID> or all; names and e-mail addresses do not notify anyone',
  })
  mentions?: string[];

  /** App mode: post as the Chat app (GOOGLE_CHAT_SERVICE_ACCOUNT_JSON) in this space, `spaces/AAAA…`. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @IsChatResourceName('space', 'must be a space name such as spaces/AAAAbCdEfGh')
  space?: string;

  /** App mode: replace the text and card of this message (the `id` output of an earlier step) instead of posting. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @IsChatResourceName(
    'message',
    'must be a message name such as spaces/AAAAbCdEfGh/messages/… (the id output of an earlier step)',
  )
  update?: string;

  /** A webhook configured by the admin (GOOGLE_CHAT_<NAME>_WEBHOOK_URL); the default one when absent. */
  @AdminChoice('webhook', 'alerts')
  webhook?: string;
}
