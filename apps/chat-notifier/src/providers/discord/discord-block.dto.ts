import { IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { FileUpload, OptionalFile } from '../../shared/file-upload.dto.js';
import { MessageContent } from '../../shared/message-content.dto.js';
import { EmptyAsAbsent, AdminChoice, Mentions } from '../../shared/body-fields.js';

/** Discord IDs (snowflakes): 17 to 20 digits. */
export const SNOWFLAKE = /^\d{17,20}$/;
/** A user ID, `&` + a role ID, or everyone/here. */
export const DISCORD_MENTION = /^(?:&?\d{17,20}|everyone|here)$/;

const IsSnowflake = (what: string): PropertyDecorator =>
  Matches(SNOWFLAKE, { message: `must be a Discord ${what} ID (17 to 20 digits)` });

/** `threadName` creates a forum post; it cannot be combined with a thread or an edit. */
function IsNewThreadOnly(): PropertyDecorator {
  return ValidateBy({
    name: 'isNewThreadOnly',
    validator: {
      validate: (value: unknown, args) => {
        const c = args?.object as DiscordConfig;
        return value === undefined || (c.thread === undefined && c.update === undefined);
      },
      defaultMessage: () => 'starts a new forum post: leave thread and update out',
    },
  });
}

/** `notify: {discord: {...}}`: a message through a channel webhook, in a thread, or an edit of an earlier one. */
export class DiscordConfig extends MessageContent {
  /** Post in this thread of the webhook's channel (the `thread` output of an earlier step, or a thread's ID). */
  @EmptyAsAbsent()
  @IsOptional()
  @IsSnowflake('thread')
  thread?: string;

  /** Forum channels: start a new post (a thread) with this title; its ID is the `thread` output. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @IsNewThreadOnly()
  threadName?: string;

  /** Edit this message (the `id` output of an earlier step; with `thread` when it is in a thread). */
  @EmptyAsAbsent()
  @IsOptional()
  @IsSnowflake('message')
  update?: string;

  /** Who to notify: user IDs, role IDs (&…), everyone, here. Only these ping; other mentions in the text do not. */
  @Mentions({
    name: 'isDiscordMentions',
    pattern: DISCORD_MENTION,
    normalise: (m) => m.replace(/^<@!?(&?\d+)>$/, '$1').replace(/^@/, ''),
    message:
      'must be up to 50 user IDs (<@123…> or 123…), role IDs (<@&456…> or &456…), everyone or here; names do not notify anyone',
  })
  mentions?: string[];

  /** A text file attached to the message. */
  @OptionalFile()
  file?: FileUpload;

  /** A webhook configured by the admin (DISCORD_<NAME>_WEBHOOK_URL); the default one when absent. */
  @AdminChoice('webhook', 'alerts')
  webhook?: string;
}
