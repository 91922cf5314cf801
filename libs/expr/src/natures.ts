// Static types ("natures", as expr calls them) used by the compile-time checker.
import { GoFunction, GoInt, GoLocation, GoTime, goTypeName } from './values.js';
import type { ExprValue, GoType } from './values.js';

export type Nature =
  | { readonly kind: 'unknown' | 'nil' | 'bool' | 'int' | 'float' | 'string' | 'time' | 'duration' }
  | { readonly kind: 'array'; readonly elem: Nature; readonly goType: string }
  | {
      readonly kind: 'map';
      readonly elem: Nature;
      readonly goType: string;
      /** Known keys of the strict top-level environment. */
      readonly fields?: ReadonlyMap<string, Nature>;
    }
  | { readonly kind: 'func'; readonly fn: GoFunction };

export const UNKNOWN: Nature = { kind: 'unknown' };
export const NIL: Nature = { kind: 'nil' };
export const BOOL: Nature = { kind: 'bool' };
export const INT: Nature = { kind: 'int' };
export const FLOAT: Nature = { kind: 'float' };
export const STRING: Nature = { kind: 'string' };
/** time.Time and time.Duration, which expr's checker types (date(), now(), duration(), their methods). */
export const TIME: Nature = { kind: 'time' };
export const DURATION: Nature = { kind: 'duration' };
export const ARRAY: Nature = { kind: 'array', elem: UNKNOWN, goType: '[]interface {}' };
export const MAP: Nature = { kind: 'map', elem: UNKNOWN, goType: 'map[string]interface {}' };

export function arrayOf(elem: Nature, goType = '[]interface {}'): Nature {
  return { kind: 'array', elem, goType };
}

/** The Go spelling used in checker messages: `string`, `float64`, `[]interface {}`, `nil`. */
export function natureName(n: Nature): string {
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
    return value.type === 'int64' || value.type === 'uint8' ? INT : UNKNOWN;
  }
  if (value instanceof GoTime) return TIME;
  if (value instanceof GoLocation) return UNKNOWN;
  if (Array.isArray(value)) return arrayOf(UNKNOWN, goTypeName(value));
  return { kind: 'map', elem: UNKNOWN, goType: goTypeName(value) };
}

export function natureOfGoType(type: GoType): Nature {
  switch (type) {
    case 'string':
      return STRING;
    case 'int':
    case 'int64':
      return INT;
    case 'float64':
      return FLOAT;
    case 'bool':
      return BOOL;
    case '[]string':
      return arrayOf(STRING, '[]string');
    case '[]interface {}':
      return ARRAY;
    case 'time.Time':
      return TIME;
    case 'time.Duration':
      return DURATION;
    default:
      return UNKNOWN;
  }
}

export const isUnknown = (n: Nature): boolean => n.kind === 'unknown';
export const isNumber = (n: Nature): boolean => n.kind === 'int' || n.kind === 'float';
export const isString = (n: Nature): boolean => n.kind === 'string';
export const isBool = (n: Nature): boolean => n.kind === 'bool';
export const isInteger = (n: Nature): boolean => n.kind === 'int';
export const isArray = (n: Nature): boolean => n.kind === 'array';
export const isTime = (n: Nature): boolean => n.kind === 'time';
export const isDuration = (n: Nature): boolean => n.kind === 'duration';

/** Whether `==` may compare the two: unknown, nil, numbers across int/float, or the same kind. */
export function comparable(l: Nature, r: Nature): boolean {
  if (isUnknown(l) || isUnknown(r) || l.kind === 'nil' || r.kind === 'nil') return true;
  if (l.kind === 'map' && r.kind === 'map') return l.goType === r.goType; // maps: only the same Go type
  return (isNumber(l) && isNumber(r)) || l.kind === r.kind;
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
