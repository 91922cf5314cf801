import { Transform } from 'class-transformer';
import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';

export type Scalar = string | number | boolean;

const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object whose values are strings, numbers or booleans (sent upstream as strings, as YAML authors expect). */
export function IsScalarMap(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isScalarMap',
      validator: {
        validate: (value: unknown) => isPlainObject(value) && Object.values(value).every(isScalar),
        defaultMessage: buildMessage(
          (prefix) => `${prefix}$property must be an object of strings, numbers or booleans`,
          options,
        ),
      },
    },
    options,
  );
}

/** A list of strings, numbers or booleans (sent upstream as strings). */
export function IsScalarList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isScalarList',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.every(isScalar),
        defaultMessage: buildMessage(
          (prefix) => `${prefix}$property must be a list of strings, numbers or booleans`,
          options,
        ),
      },
    },
    options,
  );
}

/** Any JSON object (not an array, not null). */
export function IsPlainObject(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPlainObject',
      validator: {
        validate: (value: unknown) => isPlainObject(value),
        defaultMessage: buildMessage((prefix) => `${prefix}$property must be an object`, options),
      },
    },
    options,
  );
}

/** A positive integer id: `123` or, after `{{inputs.parameters.x}}` substitution, `"123"`. */
export function IsIdNumber(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIdNumber',
      validator: {
        validate: (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value > 0,
        defaultMessage: buildMessage((prefix) => `${prefix}$property must be a positive integer`, options),
      },
    },
    options,
  );
}

/** Turns a digit string into a number (for ids written as `"{{inputs.parameters.jobId}}"`). */
export function ToIdNumber(): PropertyDecorator {
  return Transform(({ value }) =>
    typeof value === 'string' && /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : value,
  );
}

/** `true/false` written as strings (after parameter substitution) become booleans. */
export function ToBoolean(): PropertyDecorator {
  return Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));
}

/** Stringifies the values of a scalar map (call after validation). */
export function stringMap(value: Record<string, Scalar> | undefined): Record<string, string> | undefined {
  return value === undefined
    ? undefined
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/** Stringifies a scalar list (call after validation). */
export function stringList(value: Scalar[] | undefined): string[] | undefined {
  return value?.map(String);
}
