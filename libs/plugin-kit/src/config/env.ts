import { checkEnv, envProperties } from './env-rules.js';
import { describeValidationErrors } from './validation-messages.js';

export type EnvSource = Record<string, string | undefined>;

const secretFields = new WeakMap<object, Set<string>>();

/** Marks an environment field as secret: its value is masked in every log line, node message and output. */
export function Secret(): PropertyDecorator {
  return (target, property) => {
    const set = secretFields.get(target.constructor) ?? new Set<string>();
    set.add(String(property));
    secretFields.set(target.constructor, set);
  };
}

/** The secret fields of an env class, those it inherits included (as its rules are). */
export function secretFieldsOf(cls: new () => object): string[] {
  const fields = new Set<string>();
  for (let c: object | null = cls; c !== null && c !== Function.prototype; c = Object.getPrototypeOf(c))
    for (const field of secretFields.get(c) ?? []) fields.add(field);
  return [...fields];
}

// The kit's own rather than class-transformer's @Transform: an env class is read at start-up, where
// class-transformer (a plugin body's tool) would be loaded for nothing but these few functions.
const envTransforms = new WeakMap<object, Map<string, (value: string) => unknown>>();

/** Converts a variable's value before the validators see it (one per variable). */
export function EnvTransform(convert: (value: string) => unknown): PropertyDecorator {
  return (target, property) => {
    const map = envTransforms.get(target.constructor) ?? new Map<string, (value: string) => unknown>();
    map.set(String(property), convert);
    envTransforms.set(target.constructor, map);
  };
}

function transformOf(cls: object, name: string): ((value: string) => unknown) | undefined {
  for (let c: object | null = cls; c !== null && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const convert = envTransforms.get(c)?.get(name);
    if (convert) return convert;
  }
  return undefined;
}

/** Drops surrounding whitespace (a Secret written with a trailing newline). */
export function EnvTrim(): PropertyDecorator {
  return EnvTransform((value) => value.trim());
}

/** Parses `true/false/1/0/yes/no` (case-insensitive); leaves anything else for @IsBoolean to reject. */
export function EnvBoolean(): PropertyDecorator {
  return EnvTransform((value) => {
    const v = value.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(v)) return true;
    if (['false', '0', 'no'].includes(v)) return false;
    return value;
  });
}

/** Parses a decimal integer; leaves anything else for @IsInt to reject. */
export function EnvInt(): PropertyDecorator {
  return EnvTransform((value) => (/^-?\d+$/.test(value.trim()) ? Number(value) : value));
}

/** A credential an env class read, with the user it is sent with (HTTP Basic, SMTP AUTH) when it has one. */
export interface Credential {
  secret: string;
  user?: string;
}

/** Optional hook on an env class for variables a class cannot declare (`JENKINS_<NAME>_URL`, ...). */
export interface EnvExtras {
  /** Reads extra variables from the source; returns problems (each naming the variable). */
  loadExtras(source: EnvSource): string[];
  /**
   * The credentials the class read, each with its user when it is sent with one: the kit registers them with
   * the redactor at start-up, which works out every form they are sent in (a named server's token in its Basic
   * header, an SMTP password in its AUTH line).
   */
  credentials?(): Credential[];
}

/** What an env declares it read: its `credentials()` (none for a class without the hook). */
export function credentialsOf(env: object): Credential[] {
  return hasExtras(env) && env.credentials ? env.credentials() : [];
}

export class EnvValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'EnvValidationError';
  }
}

function hasExtras(value: object): value is EnvExtras {
  return typeof (value as Partial<EnvExtras>).loadExtras === 'function';
}

/**
 * Reads the variables an env class declares with the kit's env rules (empty counts as unset), applies its defaults
 * and rules, and throws one EnvValidationError that names every bad variable.
 */
export function loadEnv<E extends object>(cls: new () => E, source: EnvSource): E {
  const names = envProperties(cls);
  if (names.length === 0) throw new Error(notDeclared(cls));
  const unread = classValidatorMarked(cls).filter((name) => !names.includes(name));
  if (unread.length > 0) throw new Error(markedWithClassValidator(cls, unread));
  const env = new cls();
  for (const name of names) {
    const value = source[name];
    if (value === undefined || value === '') continue;
    const convert = transformOf(cls, name);
    (env as Record<string, unknown>)[name] = convert ? convert(value) : value;
  }
  const errors = checkEnv(env);
  // A variable that is simply not set gets one clear word instead of every constraint it fails.
  const missing = new Set(
    errors.filter((e) => (env as Record<string, unknown>)[e.property] === undefined).map((e) => e.property),
  );
  const problems = [
    ...[...missing].map((name) => `${name}: is required`),
    ...describeValidationErrors(errors.filter((e) => !missing.has(e.property))),
  ];
  if (hasExtras(env)) problems.push(...env.loadExtras(source));
  if (problems.length > 0) throw new EnvValidationError(problems);
  return env;
}

interface ClassValidatorStorage {
  getTargetValidationMetadatas(
    target: object,
    schema: string,
    always: boolean,
    strictGroups: boolean,
  ): Array<{ propertyName: string }>;
}

/**
 * The properties of an env class that carry class-validator's decorators, read from the storage class-validator
 * keeps on the global object: a file that marked them has loaded class-validator, and reading its storage loads
 * nothing more at start-up.
 */
function classValidatorMarked(cls: object): string[] {
  const storage = (globalThis as { classValidatorMetadataStorage?: ClassValidatorStorage })
    .classValidatorMetadataStorage;
  if (storage === undefined) return [];
  return [...new Set(storage.getTargetValidationMetadatas(cls, '', true, false).map((m) => m.propertyName))];
}

/** Variables marked with class-validator's decorators beside the kit's rules: they would never be read. */
function markedWithClassValidator(cls: { name: string }, names: string[]): string {
  return (
    `${cls.name} marks ${names.join(', ')} with class-validator's decorators, which an env class never reads: ` +
    `use the kit's env rules (IsString, IsOptional, IsInt, Min, ... from '@app/plugin-kit/config/env-rules.js')`
  );
}

/** An env class without the kit's rules: most likely class-validator's decorators, which an env class no longer reads. */
function notDeclared(cls: { name: string }): string {
  return (
    `${cls.name} declares no variable: mark each one with the kit's env rules ` +
    `(IsString, IsOptional, IsInt, Min, ... from '@app/plugin-kit/config/env-rules.js'), not class-validator's decorators`
  );
}
