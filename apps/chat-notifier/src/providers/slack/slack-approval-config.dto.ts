import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { AdminChoice, splitList } from '../../shared/body-fields.js';
import { IsChannelRef } from './slack-fields.js';

/** A user (U…/W…), a user group by ID (S…) or by handle (`@release-managers`). */
export const APPROVER = /^(?:[UW][A-Z0-9]{6,}|S[A-Z0-9]{6,}|@[a-z0-9][a-z0-9._-]{0,79})$/;

/** The `approve: {slack: {...}}` block. */
export class SlackApprovalConfig {
  /** A workspace the admin configured (`SLACK_<NAME>_BOT_TOKEN`); the default one when absent. */
  @AdminChoice('workspace', 'ops')
  workspace?: string;

  /** `#deploys`, `deploys` or a conversation ID; the app must be a member (it reads the request's thread). */
  @IsString()
  @IsChannelRef()
  channel!: string;

  /** The question (Slack mrkdwn); who may answer, how, and until when are added below it. */
  @IsString()
  @MinLength(1)
  @MaxLength(3000)
  text!: string;

  /** Users and user groups whose answers count; a list or one comma/space separated string. */
  @Transform(({ value }) =>
    splitList(value, (a) => a.replace(/^<(?:@|!subteam\^)([^>|]+)(?:\|[^>]*)?>$/, '$1')),
  )
  @ValidateBy({
    name: 'isApproverList',
    validator: {
      validate: (value: unknown) =>
        Array.isArray(value) &&
        value.length >= 1 &&
        value.length <= 50 &&
        value.every((a) => typeof a === 'string' && APPROVER.test(a)),
      defaultMessage: (args) => {
        const list = args?.value;
        if (!Array.isArray(list) || list.length === 0)
          return 'is required: a list of user IDs (U…), user group IDs (S…) or group handles (@release-managers)';
        if (list.length > 50) return 'at most 50 approvers';
        const index = list.findIndex((a) => typeof a !== 'string' || !APPROVER.test(a));
        return `entry ${index} (${JSON.stringify(list[index])}) is not a user ID (U…), a user group ID (S…) or a group handle (@name); display names like @alice cannot be checked`;
      },
    },
  })
  approvers!: string[];
}
