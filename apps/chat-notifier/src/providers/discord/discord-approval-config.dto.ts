import { Matches } from 'class-validator';
import { AdminChoice } from '../../shared/body-fields.js';
import { ApprovalText, Approvers } from '../../shared/approval-fields.js';
import { SNOWFLAKE } from './discord-block.dto.js';

/**
 * Discord's 2000 characters of content, less the request's tag line and room for the decision appended when it
 * falls.
 */
const TEXT_LIMIT = 1700;

/** `approve: {discord: {...}}`: a request a bot posts to a channel, answered by reactions. */
export class DiscordApprovalConfig {
  /** The channel's ID (Developer Mode → right-click the channel → Copy Channel ID). */
  @Matches(SNOWFLAKE, { message: 'must be a Discord channel ID (17 to 20 digits)' })
  channel!: string;

  /** What the approvers are asked. */
  @ApprovalText(TEXT_LIMIT)
  text!: string;

  /** User IDs (123… or <@123…>); a list or a comma-separated string. Roles cannot be read by a bot without a privileged intent. */
  @Approvers({
    name: 'isDiscordApprovers',
    pattern: SNOWFLAKE,
    normalise: (a) => a.replace(/^<@!?(\d+)>$/, '$1'),
    message:
      "must be 1 to 50 user IDs (123… or <@123…>); roles, names and everyone/here cannot approve (a bot cannot list a role's members without the privileged Server Members intent)",
  })
  approvers!: string[];

  /** A bot configured by the admin (DISCORD_<NAME>_BOT_TOKEN); the default one (DISCORD_BOT_TOKEN) when absent. */
  @AdminChoice('bot', 'ops')
  bot?: string;
}
