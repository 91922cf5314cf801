import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { normalizeStatus, STATUSES, type Status } from '../../shared/status-style.js';
import { BlocksInput, IsBlockList, type Block } from './block-kit-input.js';
import { FileUpload, OptionalFile } from '../../shared/file-upload.dto.js';
import { AdminChoice, EmptyAsAbsent, LenientBoolean } from '../../shared/body-fields.js';
import { IsChannelRef, IsMentionList, IsSlackTs, MentionsInput } from './slack-fields.js';

/** `text` is required unless the message is made of blocks or is a file. */
function IsTextUnlessBlocksOrFile(): PropertyDecorator {
  return ValidateBy({
    name: 'isTextUnlessBlocksOrFile',
    validator: {
      validate: (value: unknown, args) => {
        const config = args?.object as SlackConfig;
        if (value === undefined) return config.blocks !== undefined || config.file !== undefined;
        return typeof value === 'string';
      },
      defaultMessage: (args) =>
        args?.value === undefined
          ? 'is required unless blocks or file is given'
          : 'must be a string (Slack mrkdwn)',
    },
  });
}

/** `replyBroadcast` only makes sense for a new thread reply. */
function IsBroadcastable(): PropertyDecorator {
  return ValidateBy({
    name: 'isBroadcastable',
    validator: {
      validate: (value: unknown, args) => {
        const config = args?.object as SlackConfig;
        return value !== true || (config.threadTs !== undefined && config.updateTs === undefined);
      },
      defaultMessage: (args) =>
        (args?.object as SlackConfig).updateTs !== undefined
          ? 'cannot be used with updateTs (an edit is never broadcast)'
          : 'needs threadTs (a broadcast is a thread reply that is also shown in the channel)',
    },
  });
}

/** The `slack:` body of a plugin template. */
export class SlackConfig {
  /** `#builds`, `builds` or a conversation ID (`C0123456789`). Names are resolved to IDs. */
  @IsString()
  @IsChannelRef()
  channel!: string;

  /** Slack mrkdwn; with blocks it is the notification fallback. */
  @EmptyAsAbsent()
  @IsTextUnlessBlocksOrFile()
  text?: string;

  /** Block Kit blocks: a list, one block, `{"blocks": [...]}`, or a JSON string of any of these. */
  @BlocksInput()
  @IsOptional()
  @IsBlockList()
  blocks?: Block[];

  /** A coloured bar and an emoji: succeeded, failed, running, warning, info (or an Argo phase). */
  @Transform(({ value }) => (value === '' || value === null ? undefined : normalizeStatus(value)))
  @IsOptional()
  @IsIn(STATUSES, {
    message: `must be one of ${STATUSES.join(', ')} (Argo phases such as Failed or Error work too)`,
  })
  status?: Status;

  /** Reply in the thread of this message (the `threadTs` or `ts` output of an earlier step). */
  @EmptyAsAbsent()
  @IsOptional()
  @IsSlackTs()
  threadTs?: string;

  /** Also show the thread reply in the channel. */
  @LenientBoolean()
  @IsOptional()
  @IsBoolean()
  @IsBroadcastable()
  replyBroadcast?: boolean;

  /** Edit this message in place instead of posting a new one. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsSlackTs()
  updateTs?: string;

  /** Who to notify: user IDs (U…), user group IDs (S…), here, channel. A list or a comma-separated string. */
  @MentionsInput()
  @IsOptional()
  @IsMentionList()
  mentions?: string[];

  /** A text file shared in the same channel (and thread) right after the message. */
  @OptionalFile()
  file?: FileUpload;

  /** Unfurl links in the text (off by default, as notifications with previews get long). */
  @LenientBoolean()
  @IsOptional()
  @IsBoolean()
  unfurlLinks?: boolean;

  /** A workspace configured by the admin (SLACK_<NAME>_BOT_TOKEN); the default one when absent. */
  @AdminChoice('workspace', 'ops')
  workspace?: string;

  /** Separates otherwise identical notifications of one workflow (e.g. "{{node.name}}"). */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  key?: string;
}
