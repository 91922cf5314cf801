// The Go-like value model. Go `int` is a bigint (wrapped to 64 bits), Go `float64` is a number, maps are
// JS Maps. Arrays and maps are `[]interface {}` / `map[string]interface {}` unless tagged with another Go type.
import { fail } from './errors.js';

/** A map key: JSON maps have strings; maps with interface {} keys (groupBy) also hold numbers, bools and Go ints. */
export type MapKey = string | bigint | number | boolean | null | GoInt;
export type ExprMap = Map<MapKey, ExprValue>;
export type ExprValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | ExprValue[]
  | ExprMap
  | GoFunction
  | GoInt
  | GoTime
  | GoLocation;

/**
 * A Go integer whose type is not `int`: `uint8` (a byte of a string), `int64` (sprig), and the named types
 * `time.Duration`, `time.Month`, `time.Weekday`. Plain Go `int` stays a bigint.
 */
export class GoInt {
  constructor(
    readonly type: 'uint8' | 'int64' | 'time.Duration' | 'time.Month' | 'time.Weekday',
    readonly value: bigint,
  ) {}
}

/** A Go `*time.Location`: UTC, a fixed offset (from a parsed `+02:00`) or an IANA zone. */
export class GoLocation {
  constructor(
    readonly name: string,
    /** Seconds east of UTC for a fixed zone; undefined for an IANA zone. */
    readonly fixedOffset?: number,
  ) {}
}

/** A Go `time.Time`: nanoseconds since the Unix epoch and the location it is shown in. */
export class GoTime {
  constructor(
    readonly unixNano: bigint,
    readonly location: GoLocation,
  ) {}
}

/** The Go parameter/result types that library functions declare. */
export type GoType =
  | 'interface {}'
  | 'string'
  | 'int'
  | 'int64'
  | 'float64'
  | 'bool'
  | '[]string'
  | '[]interface {}'
  | '[]int'
  | '[]float64'
  | 'map[string]interface {}'
  | 'time.Time'
  | 'time.Duration'
  | '*time.Location';

/** A Go function value (Argo's toJson, jsonpath, sprig's functions...), called with reflect-like checks. */
export class GoFunction {
  constructor(
    readonly name: string,
    readonly params: readonly GoType[],
    readonly result: GoType,
    readonly impl: (args: ExprValue[]) => ExprValue,
    /** The element type of a trailing `...T` parameter, if any. */
    readonly variadic?: GoType,
    /** Go's own spelling of the signature, when it has types this model does not name (sprig's). */
    readonly signature?: string,
  ) {}

  get goType(): string {
    if (this.signature) return this.signature;
    const params = this.params.map(String);
    if (this.variadic) params.push(`...${this.variadic}`);
    return `func(${params.join(', ')}) ${this.result}`;
  }

  /** Mirrors reflect.Value.Call: arity and assignability are checked, a wrong type is a runtime error. */
  call(args: ExprValue[]): ExprValue {
    const fixed = this.params.length;
    if (args.length < fixed) fail('reflect: Call with too few input arguments');
    if (args.length > fixed && !this.variadic) fail('reflect: Call with too many input arguments');
    // expr passes a nil argument as reflect.Zero of the parameter type: "" for a string, 0 for an int...
    const values = args.map((arg, i) => {
      const param = i < fixed ? this.params[i]! : this.variadic!;
      if (arg === null) return zeroValue(param);
      if (!isAssignable(arg, param)) fail(`reflect: Call using ${goTypeName(arg)} as type ${param}`);
      return arg;
    });
    const result = this.impl(values);
    return this.result === 'int64' && typeof result === 'bigint'
      ? new GoInt('int64', toInt64(result))
      : result;
  }
}

/** time.Time{}: January 1, year 1, 00:00:00 UTC. */
const ZERO_TIME = new GoTime(-62_135_596_800n * 1_000_000_000n, new GoLocation('UTC', 0));

function zeroValue(type: GoType): ExprValue {
  switch (type) {
    case 'string':
      return '';
    case 'int':
      return 0n;
    case 'int64':
      return new GoInt('int64', 0n);
    case 'float64':
      return 0;
    case 'bool':
      return false;
    case 'time.Duration':
      return new GoInt('time.Duration', 0n);
    case 'time.Time':
      return ZERO_TIME;
    case '[]string':
    case '[]interface {}':
      return nilSlice(type);
    default:
      return null;
  }
}

function isAssignable(value: ExprValue, type: GoType): boolean {
  return type === 'interface {}' || (value !== null && goTypeName(value) === type);
}

const goTypeTags = new WeakMap<object, string>();
const nilSlices = new WeakSet<object>();

/**
 * A Go nil slice: empty like `[]`, but `== nil`, skipped by `??`, and `null` in JSON. Some builtins return one
 * (concat of empty lists, sort of a non-list, split with n = 0, a missing groupBy key).
 */
export function nilSlice(goType = '[]interface {}'): ExprValue[] {
  const slice: ExprValue[] = goType === '[]interface {}' ? [] : tagged([], goType);
  nilSlices.add(slice);
  return slice;
}

export function isNilSlice(value: ExprValue): boolean {
  return Array.isArray(value) && nilSlices.has(value);
}

/** expr's runtime.IsNil: nil, or a nil slice. */
export function isGoNil(value: ExprValue): boolean {
  return value === null || isNilSlice(value);
}

/** Marks an array or map with a Go type other than the default `[]interface {}` / `map[string]interface {}`. */
export function tagged<T extends ExprValue[] | ExprMap>(value: T, goType: string): T {
  goTypeTags.set(value, goType);
  return value;
}

/** The Go `%T` of a value: `float64`, `int`, `[]interface {}`, `map[string]interface {}`, `<nil>`... */
export function goTypeName(value: ExprValue): string {
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float64';
    case 'bigint':
      return 'int';
    case 'string':
      return 'string';
  }
  if (value === null) return '<nil>';
  if (value instanceof GoFunction) return value.goType;
  if (value instanceof GoInt) return value.type;
  if (value instanceof GoTime) return 'time.Time';
  if (value instanceof GoLocation) return '*time.Location';
  return goTypeTags.get(value) ?? (Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}');
}

/** The Go reflect.Kind name, used by a few builtin error messages (`cannot concat invalid`). */
export function goKindName(value: ExprValue): string {
  if (value === null) return 'invalid';
  if (Array.isArray(value)) return 'slice';
  if (value instanceof Map) return 'map';
  if (value instanceof GoFunction) return 'func';
  if (value instanceof GoInt)
    return value.type === 'uint8'
      ? 'uint8'
      : value.type.startsWith('time.M') || value.type.startsWith('time.W')
        ? 'int'
        : 'int64';
  if (value instanceof GoTime) return 'struct';
  if (value instanceof GoLocation) return 'ptr';
  return goTypeName(value);
}

/** The integer of a Go int, uint8 or int64 (not of Duration, Month or Weekday, which Go's helpers treat apart). */
export function plainInt(value: ExprValue): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (value instanceof GoInt && (value.type === 'uint8' || value.type === 'int64')) return value.value;
  return undefined;
}

/** The key of an interface-keyed map equal to `key`: a Go int is found by type and value, not identity. */
export function canonicalKey(map: ExprMap, key: MapKey): MapKey {
  if (!(key instanceof GoInt)) return key;
  for (const k of map.keys())
    if (k instanceof GoInt && k.type === key.type && k.value === key.value) return k;
  return key;
}

/** True when a map was built with `interface {}` keys (groupBy, fromPairs); JSON-string maps are the default. */
export function hasAnyKeys(map: ExprMap): boolean {
  return goTypeTags.get(map)?.startsWith('map[interface {}]') ?? false;
}

export function toInt64(value: bigint): bigint {
  return BigInt.asIntN(64, value);
}

/** Converts a host value (parsed JSON, plain objects, bigint) into the value model; numbers become float64. */
export function fromJs(value: unknown): ExprValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean':
    case 'number':
    case 'string':
      return value;
    case 'bigint':
      return toInt64(value);
  }
  if (
    value instanceof GoFunction ||
    value instanceof GoInt ||
    value instanceof GoTime ||
    value instanceof GoLocation
  )
    return value;
  if (Array.isArray(value)) {
    const tag = goTypeTags.get(value);
    if (nilSlices.has(value)) return nilSlice(tag);
    const copy = value.map(fromJs);
    return tag ? tagged(copy, tag) : copy;
  }
  if (value instanceof Map) {
    const copy: ExprMap = new Map();
    for (const [k, v] of value) copy.set(fromJs(k) as MapKey, fromJs(v));
    const tag = goTypeTags.get(value);
    return tag ? tagged(copy, tag) : copy;
  }
  if (typeof value === 'object' && isPlainObject(value)) {
    return new Map(Object.entries(value).map(([k, v]) => [k, fromJs(v)]));
  }
  throw new TypeError(`expr: unsupported host value of type ${typeof value}`);
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

/** Converts a result to plain JS: ints become numbers, maps become plain objects, functions stay as they are. */
export function toJs(value: ExprValue): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof GoInt) return Number(value.value);
  if (Array.isArray(value)) return value.map(toJs);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toJs(v)]));
  return value;
}
