import { goDurationCheck, httpUrlProblem, NOT_HTTP_URL, type GoDurationBounds } from './value-checks.js';

/**
 * The checks of an env class: a sidecar's settings, read and checked before it listens. Same names, verdicts and
 * messages as class-validator's decorators (a spec compares them value by value), kept to what a variable's text
 * needs, so that class-validator and its executor load with the first own call, for plugin bodies only.
 */
export interface EnvRuleOptions {
  /** Replaces the default message; `$property`, `$value` and `$constraint1` are filled in as class-validator does. */
  message?: string;
}

interface Check {
  /** class-validator's constraint name (`isString`, `min`, ...): the key of the problem. */
  name: string;
  test(value: unknown): boolean;
  message: string;
  constraints: readonly unknown[];
}

interface VariableRules {
  optional: boolean;
  checks: Check[];
}

/** A class's own rules by variable, in the order the variables are written. */
const ownRules = new WeakMap<object, Map<string, VariableRules>>();

function rulesOf(cls: object, property: string | symbol): VariableRules {
  let variables = ownRules.get(cls);
  if (!variables) {
    variables = new Map();
    ownRules.set(cls, variables);
  }
  let rules = variables.get(String(property));
  if (!rules) {
    rules = { optional: false, checks: [] };
    variables.set(String(property), rules);
  }
  return rules;
}

function rule(
  name: string,
  test: (value: unknown) => boolean,
  message: string,
  options?: EnvRuleOptions,
  constraints: readonly unknown[] = [],
): PropertyDecorator {
  return (target, property) =>
    void rulesOf(target.constructor, property).checks.push({
      name,
      test,
      message: options?.message ?? message,
      constraints,
    });
}

/** Skips the variable's other rules when it is unset. */
export function IsOptional(): PropertyDecorator {
  return (target, property) => void (rulesOf(target.constructor, property).optional = true);
}

export const IsString = (options?: EnvRuleOptions): PropertyDecorator =>
  rule(
    'isString',
    (v) => typeof v === 'string' || v instanceof String,
    '$property must be a string',
    options,
  );

export const IsNotEmpty = (options?: EnvRuleOptions): PropertyDecorator =>
  rule(
    'isNotEmpty',
    (v) => v !== '' && v !== null && v !== undefined,
    '$property should not be empty',
    options,
  );

export const IsInt = (options?: EnvRuleOptions): PropertyDecorator =>
  rule(
    'isInt',
    (v) => typeof v === 'number' && Number.isInteger(v),
    '$property must be an integer number',
    options,
  );

export const IsBoolean = (options?: EnvRuleOptions): PropertyDecorator =>
  rule(
    'isBoolean',
    (v) => typeof v === 'boolean' || v instanceof Boolean,
    '$property must be a boolean value',
    options,
  );

export const Min = (min: number, options?: EnvRuleOptions): PropertyDecorator =>
  rule(
    'min',
    (v) => typeof v === 'number' && v >= min,
    '$property must not be less than $constraint1',
    options,
    [min],
  );

export const Max = (max: number, options?: EnvRuleOptions): PropertyDecorator =>
  rule(
    'max',
    (v) => typeof v === 'number' && v <= max,
    '$property must not be greater than $constraint1',
    options,
    [max],
  );

export const IsIn = (values: readonly unknown[], options?: EnvRuleOptions): PropertyDecorator =>
  rule(
    'isIn',
    (v) => values.some((allowed) => allowed === v),
    '$property must be one of the following values: $constraint1',
    options,
    [values],
  );

export const Matches = (pattern: RegExp, options?: EnvRuleOptions): PropertyDecorator =>
  rule(
    'matches',
    (v) => typeof v === 'string' && v.match(pattern) !== null,
    '$property must match $constraint1 regular expression',
    options,
    [pattern],
  );

/** A Go duration (`30s`, `1m30s`) within optional bounds, as the kit's `IsGoDuration` for plugin bodies. */
export function IsGoDuration(bounds: GoDurationBounds = {}, options?: EnvRuleOptions): PropertyDecorator {
  const { valid, problem } = goDurationCheck(bounds);
  return rule('isGoDuration', valid, `$property ${problem}`, options);
}

/** An absolute http(s) URL, as the kit's `IsHttpUrl` for plugin bodies. */
export const IsHttpUrl = (options?: EnvRuleOptions): PropertyDecorator =>
  rule('isHttpUrl', (v) => httpUrlProblem(v) === undefined, `$property ${NOT_HTTP_URL}`, options);

/**
 * A class's rules with those it inherits: a subclass's checks of a variable replace the inherited ones, and a
 * variable is optional if any class declaring it says so. Decorators run when a class is defined, so this is
 * worked out once per class.
 */
const allRules = new WeakMap<object, ReadonlyMap<string, VariableRules>>();

function rulesWithInherited(cls: object): ReadonlyMap<string, VariableRules> {
  let merged = allRules.get(cls);
  if (merged === undefined) {
    const building = new Map<string, VariableRules>();
    for (let c: object | null = cls; c !== null && c !== Function.prototype; c = Object.getPrototypeOf(c))
      for (const [property, rules] of ownRules.get(c) ?? []) {
        const nearer = building.get(property);
        building.set(
          property,
          nearer ? { optional: nearer.optional || rules.optional, checks: nearer.checks } : rules,
        );
      }
    merged = building;
    allRules.set(cls, merged);
  }
  return merged;
}

const propertiesByClass = new WeakMap<object, readonly string[]>();

/** The variables an env class declares (its own, then those it inherits), in declaration order. */
export function envProperties(cls: object): readonly string[] {
  let names = propertiesByClass.get(cls);
  if (names === undefined) {
    names = Object.freeze([...rulesWithInherited(cls).keys()]);
    propertiesByClass.set(cls, names);
  }
  return names;
}

/** A variable that breaks rules: its value and, by rule name, the messages (class-validator's ValidationError). */
export interface EnvProblem {
  property: string;
  value: unknown;
  constraints: Record<string, string>;
}

/** Checks an env object against its class's rules. */
export function checkEnv(env: object): EnvProblem[] {
  const problems: EnvProblem[] = [];
  const targetName = env.constructor.name;
  for (const [property, { optional, checks }] of rulesWithInherited(env.constructor)) {
    const value = (env as Record<string, unknown>)[property];
    if (optional && (value === null || value === undefined)) continue;
    const constraints: Record<string, string> = {};
    for (const check of checks)
      if (!check.test(value)) constraints[check.name] = messageOf(check, { property, value, targetName });
    if (Object.keys(constraints).length > 0) problems.push({ property, value, constraints });
  }
  return problems;
}

/** class-validator's ValidationUtils.replaceMessageSpecialTokens, for string messages (string replacements, as there). */
function messageOf(check: Check, args: { property: string; value: unknown; targetName: string }): string {
  let text = check.message;
  check.constraints.forEach((constraint, i) => {
    const shown = Array.isArray(constraint) ? constraint.join(', ') : `${String(constraint)}`;
    text = text.replace(new RegExp(`\\$constraint${i + 1}`, 'g'), shown);
  });
  if (['string', 'boolean', 'number'].includes(typeof args.value))
    text = text.replace(/\$value/g, String(args.value));
  return text.replace(/\$property/g, args.property).replace(/\$target/g, args.targetName);
}
