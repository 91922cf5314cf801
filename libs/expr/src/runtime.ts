// Go-like runtime semantics of expr's operators (equality, ordering, arithmetic, fetch, slice, in, range).
import { spendSteps } from './budget.js';
import { fail } from './errors.js';
import { compareCodePoints, formatValue } from './go-format.js';
import { fromUtf8Bytes, utf8Bytes } from './go-bytes.js';
import { goPow } from './go-math.js';
import { addDuration, duration, isDuration, subTimes, timeMethod } from './go-time.js';
import {
  canonicalKey,
  GoInt,
  GoTime,
  goTypeName,
  hasAnyKeys,
  isGoNil,
  isNilSlice,
  nilSlice,
  plainInt,
  tagged,
  toInt64,
} from './values.js';
import type { ExprValue, MapKey } from './values.js';

const MEMORY_BUDGET = 1_000_000;

/** An int, a float64, or a sized Go integer (uint8, int64): what expr's arithmetic helpers accept. */
export function isNumber(value: ExprValue): value is number | bigint | GoInt {
  return typeof value === 'number' || plainInt(value) !== undefined;
}

function numeric(value: number | bigint | GoInt): number | bigint {
  return value instanceof GoInt ? value.value : value;
}

/** A Go type assertion `x.(string)` that fails like Go's panic does. */
export function asString(value: ExprValue): string {
  if (typeof value === 'string') return value;
  return conversionError(value, 'string');
}

export function asBool(value: ExprValue): boolean {
  if (typeof value === 'boolean') return value;
  return conversionError(value, 'bool');
}

function conversionError(value: ExprValue, wanted: string): never {
  const actual = value === null ? 'nil' : goTypeName(value);
  return fail(`interface conversion: interface {} is ${actual}, not ${wanted}`);
}

/** runtime.ToInt: ints as they are, floats truncated toward zero. */
export function toInt(value: ExprValue): number {
  const int = plainInt(value);
  if (int !== undefined) return Number(int);
  if (typeof value === 'number') return Math.trunc(value);
  return fail(`invalid operation: int(${goTypeName(value)})`);
}

/** runtime.Equal: numbers across int/float, []interface{} element-wise, everything else reflect.DeepEqual. */
export function equal(a: ExprValue, b: ExprValue): boolean {
  if (a === null || b === null) return isGoNil(a) && isGoNil(b);
  if (isNumber(a) && isNumber(b)) {
    const x = plainInt(a);
    const y = plainInt(b);
    return x !== undefined && y !== undefined ? x === y : Number(numeric(a)) === Number(numeric(b));
  }
  if (a instanceof GoTime && b instanceof GoTime) return a.unixNano === b.unixNano;
  if (isDuration(a) && isDuration(b)) return a.value === b.value;
  if (typeof a === 'string' || typeof a === 'boolean') return a === b;
  if (Array.isArray(a) && Array.isArray(b) && isPlainSlice(a) && isPlainSlice(b)) {
    return a.length === b.length && a.every((v, i) => equal(v, b[i]!));
  }
  return deepEqual(a, b);
}

function isPlainSlice(value: ExprValue[]): boolean {
  return goTypeName(value) === '[]interface {}';
}

/** reflect.DeepEqual: type-strict, so int 1 ≠ float64 1 inside maps. */
export function deepEqual(a: ExprValue, b: ExprValue): boolean {
  if (a === null || b === null) return a === b;
  if (goTypeName(a) !== goTypeName(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]!));
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (!b.has(k) || !deepEqual(v, b.get(k)!)) return false;
    }
    return true;
  }
  if (a instanceof GoInt && b instanceof GoInt) return a.value === b.value;
  if (a instanceof GoTime && b instanceof GoTime)
    return a.unixNano === b.unixNano && a.location === b.location;
  return typeof a !== 'object' && a === b;
}

/** Ordering for < > <= >= and sorting: numbers (int/float mixed) and strings; anything else fails. */
export function compare(a: ExprValue, b: ExprValue, operator: string): number {
  if (isNumber(a) && isNumber(b)) {
    const i = plainInt(a);
    const j = plainInt(b);
    if (i !== undefined && j !== undefined) return i < j ? -1 : i > j ? 1 : 0;
    const x = Number(numeric(a));
    const y = Number(numeric(b));
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  }
  if (a instanceof GoTime && b instanceof GoTime)
    return a.unixNano < b.unixNano ? -1 : a.unixNano > b.unixNano ? 1 : 0;
  if (isDuration(a) && isDuration(b)) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  return fail(`invalid operation: ${goTypeName(a)} ${operator} ${goTypeName(b)}`);
}

export function arithmetic(operator: string, left: ExprValue, right: ExprValue): ExprValue {
  if (operator === '+' && typeof left === 'string' && typeof right === 'string') return left + right;
  const time = timeArithmetic(operator, left, right);
  if (time !== undefined) return time;
  if (!isNumber(left) || !isNumber(right))
    return fail(`invalid operation: ${goTypeName(left)} ${operator} ${goTypeName(right)}`);
  const a = numeric(left);
  const b = numeric(right);
  const ints = typeof a === 'bigint' && typeof b === 'bigint';
  switch (operator) {
    case '+':
      return ints ? toInt64(a + b) : Number(a) + Number(b);
    case '-':
      return ints ? toInt64(a - b) : Number(a) - Number(b);
    case '*':
      return ints ? toInt64(a * b) : Number(a) * Number(b);
    case '/':
      return Number(a) / Number(b);
    case '%':
      if (!ints) return fail(`invalid operation: ${goTypeName(a)} % ${goTypeName(b)}`);
      if (b === 0n) return fail('runtime error: integer divide by zero');
      return toInt64(a % b);
    default:
      return goPow(Number(a), Number(b));
  }
}

/** expr's helpers for time.Time and time.Duration operands; undefined when neither side is one. */
function timeArithmetic(operator: string, a: ExprValue, b: ExprValue): ExprValue | undefined {
  if (!(a instanceof GoTime || isDuration(a) || b instanceof GoTime || isDuration(b))) return undefined;
  if (operator === '+') {
    if (a instanceof GoTime && isDuration(b)) return addDuration(a, b.value);
    if (isDuration(a) && b instanceof GoTime) return addDuration(b, a.value);
    if (isDuration(a) && isDuration(b)) return duration(a.value + b.value);
  } else if (operator === '-') {
    if (a instanceof GoTime && b instanceof GoTime) return subTimes(a, b);
    if (a instanceof GoTime && isDuration(b)) return addDuration(a, -b.value);
    if (isDuration(a) && isDuration(b)) return duration(a.value - b.value);
  } else if (operator === '*') {
    const x = isDuration(a) ? a.value : plainInt(a);
    const y = isDuration(b) ? b.value : plainInt(b);
    if (x !== undefined && y !== undefined && (isDuration(a) || isDuration(b))) return duration(x * y);
    // runtime.Multiply: a Duration times a float64 (either way round) is a float64 of nanoseconds
    if (isDuration(a) && typeof b === 'number') return Number(a.value) * b;
    if (typeof a === 'number' && isDuration(b)) return a * Number(b.value);
  }
  return fail(`invalid operation: ${goTypeName(a)} ${operator} ${goTypeName(b)}`);
}

export function negate(value: ExprValue): ExprValue {
  if (typeof value === 'bigint') return toInt64(-value);
  if (typeof value === 'number') return -value;
  // runtime.Negate keeps the Go type: a byte wraps around (-97 is 159), sprig's int64 stays int64
  if (value instanceof GoInt && value.type === 'uint8')
    return new GoInt('uint8', BigInt.asUintN(8, -value.value));
  if (value instanceof GoInt && value.type === 'int64')
    return new GoInt('int64', BigInt.asIntN(64, -value.value));
  return fail(`invalid operation: - ${goTypeName(value)}`);
}

/** A string's bytes as Go's `s[i]` sees them: uint8 values. */
export function stringBytes(s: string): GoInt[] {
  return utf8Bytes(s).map((b) => new GoInt('uint8', BigInt(b)));
}

/** runtime.Fetch: `a.b`, `a[i]`; a string is indexed by byte and gives a uint8. */
export function fetch(from: ExprValue, key: ExprValue): ExprValue {
  if (from === null) return fail(`cannot fetch ${formatValue(key)} from <nil>`);
  if (typeof key === 'string' && typeof from === 'object' && !Array.isArray(from) && !(from instanceof Map)) {
    const method = timeMethod(from, key);
    if (method) return method;
  }
  if (Array.isArray(from) || typeof from === 'string') {
    const items: readonly ExprValue[] = typeof from === 'string' ? stringBytes(from) : from;
    let index = toInt(key);
    if (index < 0) index += items.length;
    if (index < 0 || index >= items.length) {
      fail(`index out of range: ${index} (array length is ${items.length})`);
    }
    return items[index]!;
  }
  if (from instanceof Map) {
    const value = from.get(mapKey(from, key));
    if (value !== undefined) return value;
    // the zero value of the element type: a nil []interface {} from groupBy's map, a nil []string from an
    // http.Header (an HTTP template's request and response headers)
    const type = goTypeName(from);
    if (type === 'map[interface {}][]interface {}') return nilSlice();
    if (type === 'http.Header') return nilSlice('[]string');
    return null;
  }
  return fail(`cannot fetch ${formatValue(key)} from ${goTypeName(from)}`);
}

function mapKey(map: Map<MapKey, ExprValue>, key: ExprValue): MapKey {
  if (typeof key === 'string') return key;
  if (hasAnyKeys(map)) {
    if (key instanceof GoInt) return canonicalKey(map, key);
    if (typeof key === 'object' && key !== null)
      fail(`runtime error: hash of unhashable type ${goTypeName(key)}`);
    return key as MapKey;
  }
  // Go looks a nil key up as the zero value of the key type.
  if (key === null) return '';
  return fail(`reflect.Value.MapIndex: value of type ${goTypeName(key)} is not assignable to type string`);
}

/** runtime.Slice: bounds are clamped, never an error. */
export function slice(from: ExprValue, start: ExprValue | undefined, end: ExprValue | undefined): ExprValue {
  if (!Array.isArray(from) && typeof from !== 'string') return fail(`cannot slice ${goTypeName(from)}`);
  if (isNilSlice(from)) return nilSlice(goTypeName(from)); // slicing a nil slice gives nil
  const items: readonly (ExprValue | number)[] = typeof from === 'string' ? utf8Bytes(from) : from;
  const length = items.length;
  let a = start === undefined ? 0 : toInt(start);
  let b = end === undefined ? length : toInt(end);
  if (a < 0) a = Math.max(0, length + a);
  if (b < 0) b = Math.max(0, length + b);
  b = Math.min(b, length);
  a = Math.min(a, b);
  if (typeof from === 'string') return fromUtf8Bytes((items as number[]).slice(a, b));
  return sameSliceType(from, (items as ExprValue[]).slice(a, b));
}

/** Keeps the Go slice type of `source` (e.g. []string) on a derived slice. */
export function sameSliceType(source: ExprValue[], items: ExprValue[]): ExprValue[] {
  const type = goTypeName(source);
  return type === '[]interface {}' ? items : tagged(items, type);
}

const TIME_FIELDS = ['wall', 'ext', 'loc'];

export function contains(needle: ExprValue, haystack: ExprValue): boolean {
  if (haystack === null) return false;
  if (Array.isArray(haystack)) return haystack.some((item) => equal(item, needle));
  if (haystack instanceof Map) return haystack.has(mapKey(haystack, needle));
  // runtime.In on a struct looks the name up with reflect's FieldByName: time.Time's fields are unexported
  if (haystack instanceof GoTime) {
    if (typeof needle !== 'string') fail(`cannot use ${goTypeName(needle)} as field name of time.Time`);
    return TIME_FIELDS.includes(needle);
  }
  return fail(`operator "in" not defined on ${goTypeName(haystack)}`);
}

/** runtime.ToInt as int64: ints as they are, floats truncated (out of range: amd64's 0x8000000000000000). */
function toInt64Of(value: ExprValue): bigint {
  const int = plainInt(value);
  if (int !== undefined) return int;
  if (typeof value === 'number')
    return Number.isFinite(value) && Math.abs(value) < 2 ** 63 ? BigInt(Math.trunc(value)) : -(2n ** 63n);
  return fail(`invalid operation: int(${goTypeName(value)})`);
}

/** OpRange in int64 arithmetic (a float loop never ends past 2^53: `1<<62 .. 1<<62` hung and crashed V8). */
export function range(from: ExprValue, to: ExprValue): ExprValue[] {
  const a = toInt64Of(from);
  const b = toInt64Of(to);
  const size = toInt64(b - a + 1n);
  growMemory(size > 0n ? size : 0n);
  const out: ExprValue[] = [];
  for (let i = 0n; i < size; i++) out.push(toInt64(a + i));
  return tagged(out, '[]int');
}

let memory = 0;

/** Starts a run's memory count afresh (each expr.Run has its own VM). */
export function resetMemory(): void {
  memory = 0;
}

/**
 * expr's vm.memGrow: one count for the whole run, grown by every list a range, a list or map literal,
 * map(), filter(), sortBy() and the builtins concat, flatten, reverse, sort and repeat make; the run fails
 * once it reaches the budget. So `1..1000000` fails, and so do many smaller lists together.
 */
export function growMemory(size: number | bigint): void {
  memory += Number(size);
  if (memory >= MEMORY_BUDGET) fail('memory budget exceeded');
  spendSteps(size); // making an element is a step of the run's budget too
}
