import { fail, Fault } from '../errors.js';
import { byteLength, characterCount, fromUtf8Bytes, utf8Bytes } from '../go-bytes.js';
import { formatValue } from '../go-format.js';
import { marshal, unmarshal } from '../go-json.js';
import { ARRAY, INT, isArray, isInteger, isUnknown, natureName, STRING, UNKNOWN } from '../natures.js';
import type { Nature } from '../natures.js';
import { asString, compare, growMemory, contains, equal, fetch, sameSliceType, toInt } from '../runtime.js';
import {
  GoFunction,
  GoInt,
  goKindName,
  GoLocation,
  GoTime,
  goTypeName,
  nilSlice,
  tagged,
} from '../values.js';
import type { ExprMap, ExprValue, MapKey } from '../values.js';
import { expectArity, overloads } from './signatures.js';
import type { Builtin } from './signatures.js';

/** A check for one argument whose nature must be one of `kinds` (unknown always passes). */
function unary(
  kinds: readonly Nature['kind'][],
  result: (arg: Nature) => Nature,
  error: (type: string) => string,
) {
  return (args: readonly Nature[]): Nature => {
    expectArity(args, 1);
    const arg = args[0]!;
    if (!isUnknown(arg) && !kinds.includes(arg.kind)) fail(error(natureName(arg)));
    return result(arg);
  };
}

const MAP_TYPE = 'map[string]interface {}';
const ANY_MAP: Nature = { kind: 'map', elem: UNKNOWN, goType: 'map[interface {}]interface {}' };

/** first/last see only the Go type of the list: its elements are known for []string or []int only. */
const elementOf = (arg: Nature): Nature =>
  arg.kind !== 'array'
    ? UNKNOWN
    : arg.goType === '[]string'
      ? STRING
      : arg.goType === '[]int'
        ? INT
        : UNKNOWN;

/** expr's get: nil for a nil base, an index out of range or a missing key; other failures are errors. */
function get(from: ExprValue, key: ExprValue): ExprValue {
  if (from === null) return null;
  if (typeof from === 'string' || Array.isArray(from)) {
    const length = typeof from === 'string' ? byteLength(from) : from.length;
    let index = toInt(key);
    if (index < 0) index += length;
    return index >= 0 && index < length ? fetch(from, BigInt(index)) : null;
  }
  // a key of the wrong type is MapIndex's error; a missing key is nil (not the element type's zero value)
  if (from instanceof Map) return contains(key, from) ? fetch(from, key) : null;
  if (typeof key === 'string') return safeFetch(from, key);
  return null;
}

/** Go's recover() in first/last: any failure yields nil. */
function safeFetch(from: ExprValue, key: ExprValue): ExprValue {
  try {
    return fetch(from, key);
  } catch (e) {
    if (e instanceof Fault) return null;
    throw e;
  }
}

function requireSlice(value: ExprValue, message: (kind: string) => string): ExprValue[] {
  if (!Array.isArray(value)) fail(message(goKindName(value)));
  return value;
}

function requireMap(value: ExprValue, message: (kind: string) => string): ExprMap {
  if (!(value instanceof Map)) fail(message(goKindName(value)));
  return value;
}

function flatten(items: readonly ExprValue[], out: ExprValue[] = []): ExprValue[] {
  for (const item of items) {
    if (Array.isArray(item)) flatten(item, out);
    else out.push(item);
  }
  return out;
}

function typeName(value: ExprValue): string {
  switch (typeof value) {
    case 'number':
      return 'float';
    case 'bigint':
      return 'int';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
  }
  if (value === null) return 'nil';
  if (value instanceof GoFunction) return 'func';
  if (value instanceof GoInt)
    return value.type === 'uint8' ? 'uint' : value.type === 'int64' ? 'int' : value.type;
  if (value instanceof GoTime) return 'time.Time';
  if (value instanceof GoLocation) return 'unknown';
  return Array.isArray(value) ? 'array' : 'map';
}

/** Standard base64 decoding that is as strict as Go's (padding required, only \r and \n ignored). */
export function decodeBase64(text: string): string {
  const compact = text.replace(/[\r\n]/g, '');
  const bad = compact.search(/[^A-Za-z0-9+/=]|=[^=]|={3}/);
  if (bad >= 0 || compact.length % 4 !== 0) {
    fail(`illegal base64 data at input byte ${bad >= 0 ? bad : compact.length - (compact.length % 4)}`);
  }
  return fromUtf8Bytes([...Buffer.from(compact, 'base64')]);
}

export const COLLECTION_BUILTINS: Readonly<Record<string, Builtin>> = {
  len: {
    check: unary(
      ['array', 'map', 'string'],
      () => INT,
      (t) => `invalid argument for len (type ${t})`,
    ),
    call: ([x]) => {
      if (typeof x === 'string') return BigInt(characterCount(x));
      if (Array.isArray(x)) return BigInt(x.length);
      if (x instanceof Map) return BigInt(x.size);
      return fail(`invalid argument for len (type ${goTypeName(x ?? null)})`);
    },
  },
  type: { check: overloads('type', [['interface {}'], STRING]), call: ([x]) => typeName(x ?? null) },
  string: { check: overloads('string', [['interface {}'], STRING]), call: ([x]) => formatValue(x ?? null) },
  first: {
    check: unary(['array'], elementOf, (t) => `cannot get first element from ${t}`),
    call: ([x]) => safeFetch(x ?? null, 0n),
  },
  last: {
    check: unary(['array'], elementOf, (t) => `cannot get last element from ${t}`),
    call: ([x]) => safeFetch(x ?? null, -1n),
  },
  get: {
    check: (args) => {
      if (args.length !== 2) fail(`invalid number of arguments (expected 2, got ${args.length})`);
      const [base, key] = args as [Nature, Nature];
      if (isUnknown(base)) return UNKNOWN;
      if (base.kind === 'array') {
        if (!isInteger(key) && !isUnknown(key)) fail(`non-integer slice index ${natureName(key)}`);
        return base.elem;
      }
      if (base.kind === 'map') {
        if (key.kind !== 'string' && !isUnknown(key) && base.goType === MAP_TYPE) {
          fail(`cannot use ${natureName(key)} to get an element from ${base.goType}`);
        }
        return base.elem;
      }
      return fail(`type ${natureName(base)} does not support indexing`);
    },
    call: ([from, key]) => get(from ?? null, key ?? null),
  },
  take: {
    check: (args) => {
      expectArity(args, 2);
      const [list, n] = args as [Nature, Nature];
      if (!isUnknown(list) && !isArray(list)) fail(`cannot take from ${natureName(list)}`);
      if (!isUnknown(n) && !isInteger(n)) fail(`cannot take ${natureName(n)} elements`);
      return list;
    },
    call: ([list, n]) => {
      const items = requireSlice(list ?? null, (k) => `cannot take from ${k}`);
      if (typeof n !== 'bigint') return fail(`cannot take ${goKindName(n ?? null)} elements`);
      if (n < 0n) fail(`reflect: slice index out of range`);
      return n > BigInt(items.length) ? items : sameSliceType(items, items.slice(0, Number(n)));
    },
  },
  keys: {
    check: unary(
      ['map'],
      () => ARRAY,
      (t) => `cannot get keys from ${t}`,
    ),
    call: ([m]) => [...requireMap(m ?? null, (k) => `cannot get keys from ${k}`).keys()],
  },
  values: {
    check: unary(
      ['map'],
      () => ARRAY,
      (t) => `cannot get values from ${t}`,
    ),
    call: ([m]) => [...requireMap(m ?? null, (k) => `cannot get values from ${k}`).values()],
  },
  toPairs: {
    check: unary(
      ['map'],
      () => ARRAY,
      (t) => `cannot transform ${t} to pairs`,
    ),
    call: ([m]) => {
      const map = requireMap(m ?? null, (k) => `cannot transform ${k} to pairs`);
      const pairs = [...map].map(([k, v]) => tagged([k, v], '[2]interface {}'));
      return tagged(pairs, '[][2]interface {}');
    },
  },
  fromPairs: {
    check: unary(
      ['array'],
      () => ANY_MAP,
      (t) => `cannot transform ${t} from pairs`,
    ),
    call: ([list]) => {
      const out: ExprMap = tagged(new Map(), 'map[interface {}]interface {}');
      for (const pair of requireSlice(list ?? null, (k) => `cannot transform ${k} from pairs`)) {
        if (!Array.isArray(pair)) return fail(`invalid pair ${formatValue(pair)}`);
        if (pair.length !== 2) return fail(`invalid pair length ${formatValue(pair)}`);
        out.set(pair[0] as MapKey, pair[1]!);
      }
      return out;
    },
  },
  reverse: {
    check: unary(
      ['array'],
      () => ARRAY,
      (t) => `cannot reverse ${t}`,
    ),
    call: ([list]) => {
      const out = [...requireSlice(list ?? null, (k) => `cannot reverse ${k}`)].reverse();
      growMemory(out.length);
      return out;
    },
  },
  uniq: {
    check: unary(
      ['array'],
      () => ARRAY,
      (t) => `cannot uniq ${t}`,
    ),
    call: ([list]) => {
      const out: ExprValue[] = [];
      for (const item of requireSlice(list ?? null, (k) => `cannot uniq ${k}`)) {
        if (!out.some((seen) => equal(item, seen))) out.push(item);
      }
      return out;
    },
  },
  concat: {
    check: (args) => {
      if (args.length === 0) fail('invalid number of arguments (expected at least 1, got 0)');
      for (const arg of args) if (!isUnknown(arg) && !isArray(arg)) fail(`cannot concat ${natureName(arg)}`);
      return ARRAY;
    },
    call: (args) => {
      const out = args.flatMap((arg) => requireSlice(arg, (k) => `cannot concat ${k}`));
      growMemory(out.length);
      return out.length === 0 ? nilSlice() : out;
    },
  },
  flatten: {
    check: unary(
      ['array'],
      () => ARRAY,
      (t) => `cannot flatten ${t}`,
    ),
    call: ([list]) => {
      const out = flatten(requireSlice(list ?? null, (k) => `cannot flatten ${k}`));
      growMemory(out.length);
      return out;
    },
  },
  sort: {
    // Go's overloads in expr's order: the last one's error is reported
    check: overloads(
      'sort',
      [['[]interface {}', 'string'], ARRAY],
      [['[]int', 'string'], ARRAY],
      [['[]float64', 'string'], ARRAY],
      [['[]string', 'string'], ARRAY],
      [['[]interface {}'], ARRAY],
      [['[]float64'], ARRAY],
      [['[]string'], ARRAY],
      [['[]int'], ARRAY],
    ),
    call: ([list, order]) => {
      // Go copies only []interface {}, []int, []float64 and []string; anything else sorts a nil slice
      const items = Array.isArray(list) ? [...list] : nilSlice();
      const direction = order === undefined ? 'asc' : asString(order);
      if (direction !== 'asc' && direction !== 'desc')
        fail(`invalid order ${direction}, expected asc or desc`);
      const sign = direction === 'desc' ? -1 : 1;
      items.sort((a, b) => sign * Math.sign(compare(a, b, '<')));
      growMemory(items.length);
      return items;
    },
  },
  toJSON: {
    check: overloads('toJSON', [['interface {}'], STRING]),
    call: ([x]) => marshal(x ?? null, { indent: '  ' }),
  },
  fromJSON: {
    check: overloads('fromJSON', [['string'], UNKNOWN]),
    call: ([x]) => unmarshal(asString(x ?? null)),
  },
  toBase64: {
    check: overloads('toBase64', [['string'], STRING]),
    call: ([x]) => Buffer.from(utf8Bytes(asString(x ?? null))).toString('base64'),
  },
  fromBase64: {
    check: overloads('fromBase64', [['string'], STRING]),
    call: ([x]) => decodeBase64(asString(x ?? null)),
  },
};
