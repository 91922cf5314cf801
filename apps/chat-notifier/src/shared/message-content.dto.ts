import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { normalizeStatus, STATUSES, type Status } from './status-style.js';
import { EmptyAsAbsent } from './body-fields.js';

export const MAX_FIELDS = 25;
export const MAX_TEXT = 16_000;
const MAX_FIELD_NAME = 256;
const MAX_FIELD_VALUE = 1024;

/** `succeeded`, `Failed`, `Error`, … (Argo phases too) as one of the five statuses. */
export const StatusInput = (): PropertyDecorator =>
  Transform(({ value }) => (value === '' || value === null ? undefined : normalizeStatus(value)));

/** One fact of a message: shown as a name/value pair (a table row, an embed field, a FactSet entry…). */
export interface Field {
  name: string;
  value: string;
}

const asText = (v: unknown): unknown => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);

/**
 * Facts as a list of `{name, value}` (kept in order) or a name → value map, or a JSON string of either (what a
 * parameter gives); numbers and booleans become text. Argo hands a map over with its keys sorted, so a
 * list is the way to choose the order.
 */
export const FieldsInput = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (value === '' || value === null) return undefined;
    let given: unknown = value;
    if (typeof value === 'string') {
      try {
        given = JSON.parse(value);
      } catch {
        return value;
      }
    }
    if (Array.isArray(given))
      return given.map((f: unknown) =>
        typeof f === 'object' && f !== null ? { ...f, value: asText((f as Field).value) } : f,
      );
    if (typeof given !== 'object' || given === null) return given;
    return Object.entries(given).map(([name, v]) => ({ name, value: asText(v) }));
  });

export function IsFieldList(): PropertyDecorator {
  const problem = (value: unknown): string | undefined => {
    if (!Array.isArray(value))
      return 'must be a list of {name, value}, a map of name to text, or a JSON string of either';
    if (value.length > MAX_FIELDS) return `at most ${MAX_FIELDS} fields`;
    for (const [i, f] of value.entries()) {
      const { name, value: text, ...rest } = (f ?? {}) as Record<string, unknown>;
      if (typeof f !== 'object' || f === null || Object.keys(rest).length > 0)
        return `entry ${i} must be {name, value}`;
      if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_FIELD_NAME)
        return `entry ${i}: name must be 1 to ${MAX_FIELD_NAME} characters`;
      if (typeof text !== 'string') return `the value of "${name}" must be text`;
      if (text.length > MAX_FIELD_VALUE)
        return `the value of "${name}" is longer than ${MAX_FIELD_VALUE} characters`;
    }
    return undefined;
  };
  return ValidateBy({
    name: 'isFieldList',
    validator: {
      validate: (value: unknown) => problem(value) === undefined,
      defaultMessage: (args) => problem(args?.value) ?? 'is invalid',
    },
  });
}

/** `text` may be left out when the message has a title, fields or a file to show. */
function IsTextUnlessOtherContent(): PropertyDecorator {
  return ValidateBy({
    name: 'isTextUnlessOtherContent',
    validator: {
      validate: (value: unknown, args) => {
        const c = args?.object as MessageContent & { file?: unknown };
        if (value === undefined)
          return c.title !== undefined || c.fields !== undefined || c.file !== undefined || !c.needsContent();
        return typeof value === 'string' && value.length <= MAX_TEXT;
      },
      defaultMessage: (args) =>
        args?.value === undefined
          ? 'is required unless title, fields or file is given'
          : typeof args.value === 'string'
            ? `must be at most ${MAX_TEXT} characters`
            : 'must be a string',
    },
  });
}

/**
 * What every provider block shares: the message (text, title, status, fields) and the key that separates
 * otherwise identical notifications. Each provider renders it in its own form (attachment, embed, card…).
 */
export class MessageContent {
  /** The message; each provider's own markup (Markdown for most). */
  @EmptyAsAbsent()
  @IsTextUnlessOtherContent()
  text?: string;

  /** A heading above the text. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(256)
  title?: string;

  /** A colour and an emoji: succeeded, failed, running, warning, info (or an Argo phase). */
  @StatusInput()
  @IsOptional()
  @IsIn(STATUSES, {
    message: `must be one of ${STATUSES.join(', ')} (Argo phases such as Failed or Error work too)`,
  })
  status?: Status;

  /** Facts shown as name/value pairs: a list of {name, value}, or a map (Argo sorts its keys). */
  @FieldsInput()
  @IsOptional()
  @IsFieldList()
  fields?: Field[];

  /** Separates otherwise identical notifications of one workflow (e.g. "{{node.name}}"). */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  key?: string;

  /** Whether this body sends content at all (a PagerDuty resolve does not). */
  needsContent(): boolean {
    return true;
  }
}
