// Expression environments as Argo builds them (server/event/dispatch and util/expr/env).
import { toGoFloat, toGoInt } from './builtins/numbers.js';
import { marshal, unmarshal } from './go-json.js';
import { jsonPathGet } from './jsonpath.js';
import { natureOf } from './natures.js';
import type { Nature } from './natures.js';
import { asString } from './runtime.js';
import { sprigFunctions } from './sprig.js';
import { fromJs, GoFunction } from './values.js';
import type { ExprMap, ExprValue } from './values.js';

/** Top-level names and their values. Plain JS values (JSON numbers are float64) or the library's value model. */
export type Environment = Readonly<Record<string, unknown>>;

/**
 * The selector / parameter environment of one event: `Jsonify({namespace, discriminator, metadata, payload})`.
 * `payload` is the decoded body (undefined or null for an empty body or `null`); `metadata` holds the
 * lower-cased `x-` headers as lists.
 */
export function eventEnv(
  payload: unknown,
  metadata: Readonly<Record<string, readonly string[]>>,
  discriminator: string,
  namespace: string,
): Record<string, unknown> {
  const env = { namespace, discriminator, metadata, payload: payload ?? null };
  return jsonRoundTrip(env) as Record<string, unknown>;
}

/**
 * What JSON.parse(JSON.stringify(v)) gives, except that -0 stays -0: Go's json.Marshal writes `-0` and reads
 * it back as -0, where JSON.stringify writes `0`.
 */
function jsonRoundTrip(value: unknown, inArray = false): unknown {
  const v: unknown =
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON: () => unknown }).toJSON()
      : value;
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return inArray ? null : undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => jsonRoundTrip(x, true));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const copy = jsonRoundTrip(x);
    if (copy !== undefined) out[k] = copy;
  }
  return out;
}

let metadataFunctionsCache: Record<string, unknown> | undefined;

/** Argo's extra names for metadata (name, generateName, labels, annotations) expressions. */
export function metadataFunctions(): Readonly<Record<string, unknown>> {
  metadataFunctionsCache ??= {
    sprig: sprigFunctions(),
    toJson: new GoFunction('toJson', ['interface {}'], 'string', ([v]) => marshal(v!)),
    jsonpath: new GoFunction('jsonpath', ['string', 'string'], 'interface {}', ([json, path]) =>
      jsonPathGet(asString(path!), unmarshal(asString(json!))),
    ),
    asInt: new GoFunction('asInt', ['interface {}'], 'interface {}', ([v]) => toGoInt(v!)),
    asFloat: new GoFunction('asFloat', ['interface {}'], 'interface {}', ([v]) => toGoFloat(v!)),
  };
  return metadataFunctionsCache;
}

/** The metadata-expression environment: the event environment plus sprig, toJson, jsonpath, asInt, asFloat. */
export function metadataEnv(env: Environment): Record<string, unknown> {
  return { ...env, ...metadataFunctions() };
}

const converted = new WeakMap<Environment, ExprMap>();

/** Converts an environment once; environments are treated as immutable after first use. */
export function toEnvMap(env: Environment): ExprMap {
  let map = converted.get(env);
  if (!map) {
    map = new Map(Object.entries(env).map(([name, value]): [string, ExprValue] => [name, fromJs(value)]));
    converted.set(env, map);
  }
  return map;
}

export function envNatures(env: ExprMap): Map<string, Nature> {
  return new Map([...env].map(([name, value]) => [String(name), natureOf(value)]));
}
