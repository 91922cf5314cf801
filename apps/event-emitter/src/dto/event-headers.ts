import { ValidateBy, type ValidationArguments } from 'class-validator';

/** Headers the plugin sets itself or that the server would turn into two-element lists. */
export const RESERVED_HEADERS = ['x-argo-plugin-key', 'x-forwarded-for', 'x-forwarded-host'];

export type EventHeaders = Record<string, string | string[]>;

/** The first problem of a `headers` map, or undefined. */
export function headerProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'must be a map of header name to value (or list of values)';
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (!/^x-/i.test(name))
      return `"${name}" does not start with x-: the Argo Server only passes x- headers to bindings, so it would be dropped`;
    if (!/^x-[A-Za-z0-9][A-Za-z0-9-]*$/i.test(name))
      return `"${name}" is not a valid header name (x- followed by letters, digits and dashes)`;
    if (RESERVED_HEADERS.includes(name.toLowerCase()))
      return `"${name}" is set by the plugin or the server and cannot be given`;
    const values = Array.isArray(v) ? v : [v];
    if (values.length === 0) return `"${name}" has no value`;
    for (const item of values) {
      if (typeof item !== 'string') return `"${name}" must be a string or a list of strings`;
      if (!/^[\x20-\x7e]*$/.test(item))
        return `"${name}" must be printable ASCII (the server refuses other header values with 500)`;
    }
  }
  return undefined;
}

/** `headers`: names start with x- (any case; the server lower-cases them), values are printable ASCII. */
export function IsEventHeaders(): PropertyDecorator {
  return ValidateBy({
    name: 'isEventHeaders',
    validator: {
      validate: (value: unknown) => headerProblem(value) === undefined,
      defaultMessage: (args?: ValidationArguments) => headerProblem(args?.value) ?? 'invalid',
    },
  });
}
