import { Matches } from 'class-validator';
import { AdminChoice } from '../../shared/body-fields.js';
import { ApprovalText, Approvers } from '../../shared/approval-fields.js';
import { MATTERMOST_ID } from './mattermost-block.dto.js';

/** `group:` and a user group's ID: its members are approvers. */
export const MATTERMOST_GROUP = /^group:([a-z0-9]{26})$/;
/** A user ID (26 characters), a username, or a group; not a channel-wide mention. */
const MATTERMOST_APPROVER = /^(?!(?:here|channel|all)$)(?:group:[a-z0-9]{26}|[a-z0-9._-]{1,64})$/;

/** An approver as a body writes it (`@Alice`), as the channel reads it (`alice`). */
export const mattermostApprover = (a: string): string => a.replace(/^@/, '').toLowerCase();

/** Mattermost's post limit (16383 characters), less room for the decision appended when it falls. */
const TEXT_LIMIT = 16_000;

/** `approve: {mattermost: {...}}`: a request posted to a channel, answered by reactions or replies in its thread. */
export class MattermostApprovalConfig {
  /** The channel's ID (channel menu → View Info): the request is posted there. */
  @Matches(MATTERMOST_ID, { message: 'must be a channel ID (26 characters: channel menu → View Info)' })
  channel!: string;

  /** What the approvers are asked. */
  @ApprovalText(TEXT_LIMIT)
  text!: string;

  /** User IDs, usernames (alice or @alice) and user groups (group:<group ID>); a list or a comma-separated string. */
  @Approvers({
    name: 'isMattermostApprovers',
    pattern: MATTERMOST_APPROVER,
    normalise: mattermostApprover,
    message:
      'must be 1 to 50 approvers: user IDs, usernames (alice or @alice) or user groups (group:<group ID>); here, channel and all are not people',
  })
  approvers!: string[];

  /** A server configured by the admin (MATTERMOST_<NAME>_URL + MATTERMOST_<NAME>_TOKEN); the default one when absent. */
  @AdminChoice('server', 'ops')
  server?: string;
}
