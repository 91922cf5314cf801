import { Transform } from 'class-transformer';
import { JsonTextTooCostlyError, parseJsonText } from '@app/plugin-kit';
import { IsNotIn, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { NAMESPACE, NAMESPACE_MAX, PATH_SAFE } from '../config/names.js';
import { IsEventHeaders, type EventHeaders } from './event-headers.js';

/** A JSON text that would build too much to parse: the check names the bound. */
class CostlyPayload {
  constructor(readonly reason: string) {}
}

/** A JSON string is parsed (bounded); anything that is not an object afterwards is left for the check to report. */
const parseJsonString = Transform(({ value }) => {
  if (typeof value !== 'string') return value;
  try {
    return parseJsonText(value);
  } catch (err) {
    return err instanceof JsonTextTooCostlyError ? new CostlyPayload(err.message) : value;
  }
});

function IsPayloadObject(): PropertyDecorator {
  return ValidateBy({
    name: 'isPayloadObject',
    validator: {
      validate: (value: unknown) =>
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        !(value instanceof CostlyPayload),
      defaultMessage: (args) =>
        args?.value instanceof CostlyPayload
          ? args.value.reason
          : typeof args?.value === 'string'
            ? 'must be an object or a JSON string of an object (this string is not valid JSON)'
            : 'must be an object or a JSON string of an object',
    },
  });
}

/** The `workflow-event:` body of a plugin template. */
export class WorkflowEventConfig {
  /** Namespace whose bindings receive the event; default the workflow's own (the admin allowlist applies). */
  @IsOptional()
  @IsString()
  @MaxLength(NAMESPACE_MAX)
  @Matches(NAMESPACE, { message: 'must be a Kubernetes namespace name (lower-case letters, digits and -)' })
  namespace?: string;

  /** The last path segment, seen by bindings as `discriminator`. Empty by default. */
  @IsString()
  @MaxLength(253)
  @Matches(PATH_SAFE, {
    message: 'may only contain A-Z a-z 0-9 . _ ~ - (it is a URL path segment; / and : change the route)',
  })
  @IsNotIn(['.', '..'], { message: 'cannot be . or .. (the server would rewrite the path)' })
  discriminator = '';

  /** The event body (an object, or a JSON string of one); `{}` by default. */
  @parseJsonString
  @IsPayloadObject()
  payload: Record<string, unknown> = {};

  /** x- headers; bindings see them as `metadata["x-name"] == ["value"]` (lower-case names, list values). */
  @IsOptional()
  @IsEventHeaders()
  headers?: EventHeaders;

  /** Separates otherwise identical calls in one workflow (the execution key includes the whole body). */
  @IsOptional()
  @IsString()
  key?: string;
}
