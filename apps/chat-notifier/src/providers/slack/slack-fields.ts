import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { splitList } from '../../shared/body-fields.js';

/** A Slack message timestamp: seconds, a dot, microseconds (`1712345678.123456`). */
export const SLACK_TS = /^\d{9,11}\.\d{1,6}$/;

/** Conversation IDs: C… public, G… private (legacy), D… direct message. */
export const CHANNEL_ID = /^[CGD][A-Z0-9]{8,}$/;

/** A channel name as Slack allows it: lower case letters (any script), digits, `-`, `_`, up to 80 characters. */
export const CHANNEL_NAME = /^#?[\p{Ll}\p{Lo}\p{N}_.-]{1,80}$/u;

/** User (U…/W…), user group (S…) or a broadcast. */
export const MENTION = /^(?:[UW][A-Z0-9]{6,}|S[A-Z0-9]{6,}|here|channel)$/;

/** A channel ID (`C0123ABCDE`) or name (`#builds`, `builds`). */
export function IsChannelRef(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isChannelRef',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && (CHANNEL_ID.test(value) || CHANNEL_NAME.test(value.toLowerCase())),
        defaultMessage: () => 'must be a channel name like #builds or a channel ID like C0123456789',
      },
    },
    options,
  );
}

export function IsSlackTs(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSlackTs',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && SLACK_TS.test(value),
        defaultMessage: () =>
          'must be a Slack message ts such as 1712345678.123456 (the ts output of an earlier step)',
      },
    },
    options,
  );
}

/**
 * Mentions as a list or as one comma/space separated string (`"U012ABCDEF, here"`, what a parameter gives),
 * in the forms people paste (`@here`, `<@U012ABCDEF>`, `<!subteam^S012ABCDEF|@oncall>`): bare IDs are kept.
 */
export const MentionsInput = (): PropertyDecorator =>
  Transform(({ value }) =>
    splitList(value, (m) =>
      m.replace(/^<(?:@|!subteam\^|!)?([^>|]+)(?:\|[^>]*)?>$/, '$1').replace(/^[@!]/, ''),
    ),
  );

export function IsMentionList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMentionList',
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.length <= 50 &&
          value.every((m) => typeof m === 'string' && MENTION.test(m)),
        defaultMessage: (args) => {
          const list = args?.value;
          if (!Array.isArray(list))
            return 'must be a list of Slack IDs (U… users, S… user groups) or here/channel';
          if (list.length > 50) return 'at most 50 mentions';
          const index = list.findIndex((m) => typeof m !== 'string' || !MENTION.test(m));
          return `entry ${index} (${JSON.stringify(list[index])}) is not a user ID (U…), a user group ID (S…), here or channel; names like @alice do not notify anyone`;
        },
      },
    },
    options,
  );
}
