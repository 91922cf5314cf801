import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** Parameter, input and variable values: strings, or numbers/booleans that are sent as text. */
export type Scalar = string | number | boolean;
export type ScalarMap = Record<string, Scalar>;

export interface ScalarMapRules {
  maxEntries: number;
  /** What a name must look like, and how to say it. */
  keyPattern: RegExp;
  keyRule: string;
  /** Names the plugin sets itself. */
  reserved?: string[];
  maxValueLength?: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first thing wrong with `value` as a scalar map, phrased to follow the field name; undefined if fine. */
export function scalarMapProblem(value: unknown, rules: ScalarMapRules): string | undefined {
  if (!isPlainObject(value)) return 'must be a map of names to strings, numbers or booleans';
  const entries = Object.entries(value);
  if (entries.length > rules.maxEntries)
    return `must have at most ${rules.maxEntries} entries (got ${entries.length})`;
  const maxLength = rules.maxValueLength ?? 65_536;
  for (const [key, v] of entries) {
    if (rules.reserved?.includes(key))
      return `"${key}" is set by the plugin itself (build correlation) and cannot be given`;
    if (!rules.keyPattern.test(key)) return `"${key}" is not a valid name (${rules.keyRule})`;
    if (typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'string' && typeof v !== 'boolean') {
      return `"${key}" must be a string, number or boolean`;
    }
    if (String(v).length > maxLength) return `"${key}" is longer than ${maxLength} characters`;
  }
  return undefined;
}

/** A map of names to scalar values within the given rules. */
export function IsScalarMap(rules: ScalarMapRules, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isScalarMap',
      validator: {
        validate: (value: unknown) => scalarMapProblem(value, rules) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} ${scalarMapProblem(args?.value, rules) ?? 'is invalid'}`,
      },
    },
    options,
  );
}

/** The map with every value as a string (Argo AnyString style: 1.5 → "1.5", true → "true"). */
export function toStringMap(map: ScalarMap | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, String(v)]));
}
