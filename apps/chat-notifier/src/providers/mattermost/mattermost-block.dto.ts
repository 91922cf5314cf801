import { IsOptional, Matches, ValidateBy } from 'class-validator';
import { FileUpload, OptionalFile } from '../../shared/file-upload.dto.js';
import { MessageContent } from '../../shared/message-content.dto.js';
import { EmptyAsAbsent, AdminChoice, Mentions } from '../../shared/body-fields.js';

/** Mattermost object IDs: 26 lower-case base32 characters. */
export const MATTERMOST_ID = /^[a-z0-9]{26}$/;
/** Channel and team handles (the URL names): lower-case letters, digits, `-`, `_`, 1 to 64 characters. */
export const MATTERMOST_NAME = /^[a-z0-9](?:[a-z0-9_-]{0,63})$/;
/** A username (`@alice`, `alice.b`), or a channel-wide mention. */
export const MATTERMOST_MENTION = /^(?:[a-z0-9._-]{1,64}|here|channel|all)$/;

const PostId = (): PropertyDecorator =>
  Matches(MATTERMOST_ID, {
    message: 'must be a Mattermost post ID (26 characters: the id output of an earlier step)',
  });

/** Mentions as a list or a comma/space separated string, with or without `@`. */

/** A channel name needs its team (names are unique per team only). */
function IsChannelWithTeam(): PropertyDecorator {
  return ValidateBy({
    name: 'isChannelWithTeam',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'string' &&
        (MATTERMOST_ID.test(value) ||
          (MATTERMOST_NAME.test(value.replace(/^~/, '')) &&
            (args?.object as MattermostConfig).team !== undefined)),
      defaultMessage: (args) =>
        typeof args?.value === 'string' && MATTERMOST_NAME.test(args.value.replace(/^~/, ''))
          ? 'a channel name needs team (the team name from the URL, e.g. team: eng), or give the channel ID'
          : 'must be a channel ID (26 characters) or a channel name from its URL such as town-square',
    },
  });
}

/** `notify: {mattermost: {...}}`: a post, a thread reply or an edit through the REST API v4 with a bot token. */
export class MattermostConfig extends MessageContent {
  /** The channel's name from its URL (`builds`, with `team`) or its ID. */
  @IsChannelWithTeam()
  channel!: string;

  /** The team name from the URL (`eng` in https://chat.example.com/eng/channels/builds). */
  @EmptyAsAbsent()
  @IsOptional()
  @Matches(MATTERMOST_NAME, { message: 'must be a team name from its URL such as eng' })
  team?: string;

  /** Reply in the thread of this post (the `thread` or `id` output of an earlier step). */
  @EmptyAsAbsent()
  @IsOptional()
  @PostId()
  thread?: string;

  /** Edit this post in place (the `id` output of an earlier step) instead of posting. */
  @EmptyAsAbsent()
  @IsOptional()
  @PostId()
  update?: string;

  /** Who to notify: usernames or here/channel/all; a list or a comma-separated string. */
  @Mentions({
    name: 'isMattermostMentions',
    pattern: MATTERMOST_MENTION,
    normalise: (m) => m.replace(/^@/, '').toLowerCase(),
    message: 'must be up to 50 usernames (alice or @alice) or here, channel, all',
  })
  mentions?: string[];

  /** A text file attached to the post. */
  @OptionalFile()
  file?: FileUpload;

  /** A server configured by the admin (MATTERMOST_<NAME>_URL + MATTERMOST_<NAME>_TOKEN); the default one when absent. */
  @AdminChoice('server', 'ops')
  server?: string;
}
