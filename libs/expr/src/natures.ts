// Static types ("natures", as expr calls them) used by the compile-time checker.
import { GoFunction, GoInt, GoLocation, GoTime, goTypeName } from './values.js';
import type { ExprValue, GoType } from './values.js';

export type Nature =
  | {
      readonly kind:
        'unknown' | 'any' | 'nil' | 'bool' | 'int' | 'float' | 'string' | 'time' | 'duration' | 'location';
    }
  | { readonly kind: 'int'; readonly goType: 'int64' | 'uint8' }
  | { readonly kind: 'array'; readonly elem: Nature; readonly goType: string }
  | {
      readonly kind: 'map';
      readonly elem: Nature;
      readonly goType: string;
      /** Known keys of the strict top-level environment. */
      readonly fields?: ReadonlyMap<string, Nature>;
    }
  | { readonly kind: 'func'; readonly fn: GoFunction };

/** No type at all (expr's empty nature): `$env.x`, a field of an `interface {}`, a call of an unknown function. */
export const UNKNOWN: Nature = { kind: 'unknown' };
/**
 * `interface {}`: a value read from a map or list of the environment, or what a builtin declares as `any`
 * (`fromJSON`, `first` of a `[]interface {}`). The checker treats it as unknown, but it has a Go type, so it
 * takes part in assignability: `cond ? {} : payload.x` is a map, `payload.x ?? 1` stays `interface {}`.
 */
export const ANY: Nature = { kind: 'any' };
/** *time.Location, from timezone(). */
export const LOCATION: Nature = { kind: 'location' };
export const NIL: Nature = { kind: 'nil' };
export const BOOL: Nature = { kind: 'bool' };
export const INT: Nature = { kind: 'int' };
/** Integers of other Go types: sprig's int64, a string's byte. */
export const INT64: Nature = { kind: 'int', goType: 'int64' };
export const UINT8: Nature = { kind: 'int', goType: 'uint8' };
export const FLOAT: Nature = { kind: 'float' };
export const STRING: Nature = { kind: 'string' };
/** time.Time and time.Duration, which expr's checker types (date(), now(), duration(), their methods). */
export const TIME: Nature = { kind: 'time' };
export const DURATION: Nature = { kind: 'duration' };
export const ARRAY: Nature = { kind: 'array', elem: ANY, goType: '[]interface {}' };
export const MAP: Nature = { kind: 'map', elem: ANY, goType: 'map[string]interface {}' };

export function arrayOf(elem: Nature, goType = '[]interface {}'): Nature {
  return { kind: 'array', elem, goType };
}

/** The Go spelling used in checker messages: `string`, `float64`, `[]interface {}`, `nil`. */
export function natureName(n: Nature): string {
  if (n.kind === 'int') return 'goType' in n ? n.goType : 'int';
  switch (n.kind) {
    case 'float':
      return 'float64';
    case 'array':
    case 'map':
      return n.goType;
    case 'func':
      return n.fn.goType;
    case 'nil': // a nil nature has no Go type: expr prints it as unknown
      return 'unknown';
    case 'any':
      return 'interface {}';
    case 'location':
      return '*time.Location';
    case 'time':
      return 'time.Time';
    case 'duration':
      return 'time.Duration';
    default:
      return n.kind;
  }
}

/** The nature of a runtime value; nested maps are not strict, so their fields are unknown. */
export function natureOf(value: ExprValue): Nature {
  switch (typeof value) {
    case 'boolean':
      return BOOL;
    case 'number':
      return FLOAT;
    case 'bigint':
      return INT;
    case 'string':
      return STRING;
  }
  if (value === null) return NIL;
  if (value instanceof GoFunction) return { kind: 'func', fn: value };
  if (value instanceof GoInt) {
    if (value.type === 'time.Duration') return DURATION;
    return value.type === 'int64' ? INT64 : value.type === 'uint8' ? UINT8 : UNKNOWN;
  }
  if (value instanceof GoTime) return TIME;
  if (value instanceof GoLocation) return LOCATION;
  if (Array.isArray(value)) return natureOfGoType(goTypeName(value));
  return { kind: 'map', elem: ANY, goType: goTypeName(value) };
}

/** expr's FromType: the nature of a Go type, with the element nature its Go type gives (no more). */
export function natureOfGoType(type: GoType | string): Nature {
  switch (type) {
    case 'string':
      return STRING;
    case 'int':
      return INT;
    case 'int64':
      return INT64;
    case 'float64':
      return FLOAT;
    case 'bool':
      return BOOL;
    case '[]string':
      return arrayOf(STRING, '[]string');
    case '[]interface {}':
      return ARRAY;
    case '[]int':
      return arrayOf(INT, '[]int');
    case '[]float64':
      return arrayOf(FLOAT, '[]float64');
    case 'interface {}':
      return ANY;
    case 'time.Time':
      return TIME;
    case 'time.Duration':
      return DURATION;
    case '*time.Location':
      return LOCATION;
    case 'map[string]interface {}':
      return MAP;
    default:
      if (type.startsWith('[')) return arrayOf(UNKNOWN, type);
      if (type.startsWith('map[')) return { kind: 'map', elem: ANY, goType: type };
      return UNKNOWN;
  }
}

/** What a builtin's Go signature or Validate gives: a Go type only, so a list's element nature is lost. */
export function goTypeOnly(n: Nature): Nature {
  if (n.kind === 'unknown') return ANY;
  if (n.kind === 'array' || n.kind === 'map') return natureOfGoType(n.goType);
  return n;
}

/** expr's IsUnknown: no type, or `interface {}`. */
export const isUnknown = (n: Nature): boolean => n.kind === 'unknown' || n.kind === 'any';
export const isNumber = (n: Nature): boolean => n.kind === 'int' || n.kind === 'float';
export const isString = (n: Nature): boolean => n.kind === 'string';
export const isBool = (n: Nature): boolean => n.kind === 'bool';
export const isInteger = (n: Nature): boolean => n.kind === 'int';
export const isArray = (n: Nature): boolean => n.kind === 'array';
export const isTime = (n: Nature): boolean => n.kind === 'time';
export const isDuration = (n: Nature): boolean => n.kind === 'duration';

/** expr's ComparableTo: whether `==` may compare the two. */
export function comparable(l: Nature, r: Nature): boolean {
  if (isUnknown(l) || isUnknown(r) || l.kind === 'nil' || r.kind === 'nil') return true;
  if (isNumber(l) && isNumber(r)) return true;
  if (l.kind === r.kind && (l.kind === 'duration' || l.kind === 'time' || l.kind === 'array')) return true;
  return assignableTo(l, r);
}

/**
 * Go's assignability between natures, as expr's checker uses it (conditionals, `??`, map keys): nil goes
 * into maps, lists, functions and `interface {}`; a value without a type goes nowhere; anything with a type
 * goes into `interface {}`; otherwise the Go types must be the same.
 */
export function assignableTo(from: Nature, to: Nature): boolean {
  if (from.kind === 'nil')
    return (
      to.kind === 'map' ||
      to.kind === 'array' ||
      to.kind === 'func' ||
      to.kind === 'any' ||
      to.kind === 'location'
    );
  if (from.kind === 'unknown' || to.kind === 'unknown' || to.kind === 'nil') return false;
  if (to.kind === 'any') return true;
  return from.kind === to.kind && natureName(from) === natureName(to);
}

/** True when one side is unknown and each side is either unknown or passes one of the checks. */
export function maybeCompatible(l: Nature, r: Nature, ...checks: ((n: Nature) => boolean)[]): boolean {
  return checks.some((check) => (isUnknown(l) || check(l)) && (isUnknown(r) || check(r)));
}

/** Go assignability of an argument to a declared parameter type, when the argument's nature is known. */
export function assignable(arg: Nature, param: GoType): boolean {
  if (param === 'interface {}' || isUnknown(arg)) return true;
  // nil goes into slices, maps, pointers and funcs
  if (arg.kind === 'nil') return /^(\[\]|map\[|\*|func\()/.test(param);
  return natureName(arg) === param;
}
