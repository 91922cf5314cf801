import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, ValidateBy, type ValidationOptions } from 'class-validator';

/** A Slack message timestamp: seconds, a dot, microseconds (`1712345678.123456`). */
export const SLACK_TS = /^\d{9,11}\.\d{1,6}$/;

/** Conversation IDs: C… public, G… private (legacy), D… direct message. */
export const CHANNEL_ID = /^[CGD][A-Z0-9]{8,}$/;

/** A channel name as Slack allows it: lower case letters (any script), digits, `-`, `_`, up to 80 characters. */
export const CHANNEL_NAME = /^#?[\p{Ll}\p{Lo}\p{N}_.-]{1,80}$/u;

/** User (U…/W…), user group (S…) or a broadcast. */
export const MENTION = /^(?:[UW][A-Z0-9]{6,}|S[A-Z0-9]{6,}|here|channel)$/;

/**
 * Argo substitutes `{{inputs.parameters.x}}` into the body as text, so an optional input left at its
 * default of "" arrives as an empty string: treat that as "not given".
 */
export const EmptyAsAbsent = (): PropertyDecorator =>
  Transform(({ value }) => (value === '' || value === null ? undefined : value));

/** `true`/`false` as JSON booleans or as the strings Argo substitution produces. */
export const LenientBoolean = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (value === '' || value === null) return undefined;
    if (typeof value !== 'string') return value;
    const v = value.trim().toLowerCase();
    return v === 'true' ? true : v === 'false' ? false : value;
  });

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

/**
 * The name of a destination the admin configured (`SLACK_BOT_TOKEN_<NAME>`, `SMTP_URL_<NAME>`, ...); absent or
 * empty means the default one. `what` and `example` make the message: "must be a server name such as ops".
 */
export function AdminChoice(what: string, example: string): PropertyDecorator {
  return applyDecorators(
    EmptyAsAbsent(),
    IsOptional(),
    IsString(),
    Matches(/^[A-Za-z0-9_]{1,40}$/, {
      message: `must be a ${what} name such as ${example} (letters, digits, _)`,
    }),
  );
}

/** Splits one comma/space separated string (what a parameter gives) into a list; '' and null are absent. */
export const splitList = (value: unknown, normalise: (entry: string) => string): unknown => {
  if (value === '' || value === null) return undefined;
  const list: unknown = typeof value === 'string' ? value.split(/[\s,]+/).filter((v) => v !== '') : value;
  return Array.isArray(list)
    ? list.map((m: unknown) => (typeof m === 'string' ? normalise(m.trim()) : m))
    : list;
};

export interface MentionRules {
  /** The validation's name in class-validator's metadata. */
  name: string;
  /** One entry, after `normalise`. */
  pattern: RegExp;
  /** From the forms people paste (`<@123>`, `@alice`) to the form checked and sent. */
  normalise: (entry: string) => string;
  message: string;
}

/** An optional `mentions` field: a list or a separated string, each entry normalised, at most 50, each valid. */
export function Mentions(rules: MentionRules): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => splitList(value, rules.normalise)),
    IsOptional(),
    ValidateBy({
      name: rules.name,
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.length <= 50 &&
          value.every((m) => typeof m === 'string' && rules.pattern.test(m)),
        defaultMessage: () => rules.message,
      },
    }),
  );
}
