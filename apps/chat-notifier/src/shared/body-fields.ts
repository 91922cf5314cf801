import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, ValidateBy } from 'class-validator';

// Field decorators every provider's body uses (Slack's own ones are in providers/slack/slack-fields.ts).

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

/**
 * The name of a destination the admin configured (`SLACK_<NAME>_BOT_TOKEN`, `SMTP_<NAME>_URL`, ...); absent or
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
  return applyDecorators(IsOptional(), NameList(rules, 0));
}

/** A list of names (or a separated string of them), each normalised and valid, `min` to 50 of them. */
export function NameList(rules: MentionRules, min: number): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => splitList(value, rules.normalise)),
    ValidateBy({
      name: rules.name,
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.length >= min &&
          value.length <= 50 &&
          value.every((m) => typeof m === 'string' && rules.pattern.test(m)),
        defaultMessage: () => rules.message,
      },
    }),
  );
}
