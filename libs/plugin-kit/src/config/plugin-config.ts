import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { MAX_BODY_DEPTH, nestingDepth } from '../ledger/canonical-json.js';
import type { ConfigClass } from '../execution/plugin-handler.js';
import { declaredProperties } from './declared-properties.js';
import { describeValidationErrors } from './validation-messages.js';

export type ConfigValidation<C> = { ok: true; config: C } | { ok: false; problems: string[] };

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** First `__proto__`/`constructor`/`prototype` key in `value`, as a path. */
function forbiddenKeyPath(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    for (const k of Object.keys(v)) {
      const child = path ? `${path}.${k}` : k;
      if (FORBIDDEN_KEYS.has(k)) return child;
      stack.push([(v as Record<string, unknown>)[k], child]);
    }
  }
  return undefined;
}

/** The fields declared at `path` of a transformed config: its root class, or a nested block's class. */
function knownAt(config: object, path: string): readonly string[] {
  let value: unknown = config;
  for (const part of path === '' ? [] : path.split('.')) value = (value as Record<string, unknown>)?.[part];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const cls = value.constructor as ConfigClass;
  return cls === Object ? [] : declaredProperties(cls);
}

/**
 * Validates a plugin body against its config class: unknown fields are errors (a typo is reported, not
 * ignored), values are checked by the class-validator decorators, defaults come from field initialisers.
 */
export function validatePluginConfig<C extends object>(
  cls: ConfigClass<C>,
  body: unknown,
): ConfigValidation<C> {
  const plain = body ?? {};
  if (typeof plain !== 'object' || Array.isArray(plain))
    return { ok: false, problems: ['body: must be an object'] };
  if (nestingDepth(plain, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    return { ok: false, problems: [`body: nested deeper than ${MAX_BODY_DEPTH} levels`] };
  }
  const forbidden = forbiddenKeyPath(plain);
  if (forbidden) return { ok: false, problems: [`${forbidden}: field name not allowed`] };

  const config = plainToInstance(cls, plain, { exposeDefaultValues: true });
  const errors = validateSync(config, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length === 0) return { ok: true, config };
  return { ok: false, problems: describeValidationErrors(errors, (parent) => knownAt(config, parent)) };
}
