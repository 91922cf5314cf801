// sprig's dict and list functions that build new collections (dict.go, list.go, defaults.go of v3.3.0):
// dict, pick, omit, dig, concat, reverse, chunk, slice, deepCopy, fromJson, mustToJson. Where sprig asks
// reflect for a kind, a nil argument has no type and panics with Go's nil dereference.
import { fail } from './errors.js';
import { marshal, unmarshal } from './go-json.js';
import { ANY, castInt, fn, kindName, strval } from './sprig-kit.js';
import { fromJs, GoFunction, goTypeName, isNilSlice, nilSlice, tagged } from './values.js';
import type { ExprMap, ExprValue } from './values.js';

const DICT = 'map[string]interface {}';

/** reflect.TypeOf(v).Kind() of a list function: nil panics, anything but a slice is the function's error. */
function sliceItems(v: ExprValue, error: (kind: string) => string): readonly ExprValue[] {
  if (v === null) fail('runtime error: invalid memory address or nil pointer dereference');
  if (Array.isArray(v)) return v;
  return fail(error(kindName(v)));
}

/** A Go type assertion `v.(T)` on an interface {}, which panics with this text when it fails. */
function assertType(v: ExprValue, type: string): ExprValue {
  const actual = v === null ? 'nil' : goTypeName(v);
  if (actual !== type) fail(`interface conversion: interface {} is ${actual}, not ${type}`);
  return v;
}

function dig(args: readonly ExprValue[]): ExprValue {
  if (args.length < 3) fail('dig needs at least three arguments');
  let dict = assertType(args.at(-1)!, DICT) as ExprMap;
  const fallback = args.at(-2)!;
  const keys = args.slice(0, -2).map((k) => assertType(k, 'string') as string);
  for (const [i, key] of keys.entries()) {
    if (!dict.has(key)) return fallback;
    const step = dict.get(key)!;
    if (i === keys.length - 1) return step;
    dict = assertType(step, DICT) as ExprMap;
  }
  return fallback;
}

/** mustChunk: ceil(len/size) lists; a size that makes a negative or non-finite count fails as make() does. */
function chunk(size: number, items: readonly ExprValue[]): ExprValue[] {
  const count = Math.floor((items.length - 1) / size) + 1;
  const tooLong = (n: number): boolean => !Number.isFinite(n) || n < 0;
  if (tooLong(count)) fail('runtime error: makeslice: len out of range');
  const out: ExprValue[] = [];
  for (let i = 0; i < count; i++) {
    let length = size;
    if (i === count - 1) length = Math.floor(items.length % size) || size;
    if (tooLong(length)) fail('runtime error: makeslice: len out of range');
    out.push(items.slice(i * size, i * size + length));
  }
  return tagged(out, '[][]interface {}');
}

/** mustSlice: reflect's Slice(start, end) of the list, keeping its type; an empty list gives nil. */
function slice(list: ExprValue, indices: readonly ExprValue[]): ExprValue {
  const items = sliceItems(list, (kind) => `list should be type of slice or array but ${kind}`);
  if (items.length === 0) return null;
  const start = indices.length > 0 ? Number(castInt(indices[0]!)) : 0;
  const end = indices.length < 2 ? items.length : Number(castInt(indices[1]!));
  if (start < 0 || end < start || end > items.length) fail('reflect.Value.Slice: slice index out of bounds');
  const part = items.slice(start, end);
  const type = goTypeName(list);
  return type === '[]interface {}' ? part : tagged(part, type);
}

/** copystructure.Copy: a deep copy with the same Go types; reflect cannot walk a nil interface. */
function deepCopy(v: ExprValue): ExprValue {
  if (v === null) fail('reflect: call of reflect.Value.Type on zero Value');
  return isNilSlice(v) ? v : fromJs(v);
}

export const COLLECTION_FUNCTIONS: readonly GoFunction[] = [
  fn(
    'dict',
    [],
    DICT,
    (args) => {
      const dict: ExprMap = new Map();
      for (let i = 0; i < args.length; i += 2)
        dict.set(strval(args[i]!), i + 1 < args.length ? args[i + 1]! : '');
      return dict;
    },
    ANY,
  ),
  fn(
    'pick',
    [DICT],
    DICT,
    ([dict, ...keys]) => {
      const d = (dict ?? new Map()) as ExprMap;
      return new Map(keys.filter((k) => d.has(k as string)).map((k) => [k as string, d.get(k as string)!]));
    },
    'string',
  ),
  fn(
    'omit',
    [DICT],
    DICT,
    ([dict, ...keys]) => {
      const omitted = new Set(keys);
      return new Map([...((dict ?? new Map()) as ExprMap)].filter(([k]) => !omitted.has(k as string)));
    },
    'string',
  ),
  fn('dig', [], ANY, dig, ANY),
  // keys and values list a map in Go's random order
  fn(
    'keys',
    [],
    '[]string',
    (dicts) =>
      tagged(
        dicts.flatMap((d) => [...((d ?? new Map()) as ExprMap).keys()].map(String)),
        '[]string',
      ),
    DICT,
  ),
  fn('values', [DICT], '[]interface {}', ([d]) => [...((d ?? new Map()) as ExprMap).values()]),
  fn(
    'pluck',
    ['string'],
    '[]interface {}',
    ([key, ...dicts]) =>
      dicts
        .filter((d) => d instanceof Map && d.has(key as string))
        .map((d) => (d as ExprMap).get(key as string)!),
    DICT,
  ),
  fn(
    'concat',
    [],
    ANY,
    (lists) => {
      const out = lists.flatMap((l) => sliceItems(l, (kind) => `Cannot concat type ${kind} as list`));
      return out.length === 0 ? nilSlice() : out;
    },
    ANY,
  ),
  ...['reverse', 'mustReverse'].map((name) =>
    fn(name, [ANY], '[]interface {}', ([l]) =>
      [...sliceItems(l!, (kind) => `Cannot find reverse on type ${kind}`)].reverse(),
    ),
  ),
  ...['chunk', 'mustChunk'].map((name) =>
    fn(name, ['int', ANY], ANY, ([size, l]) =>
      chunk(
        Number(size as bigint),
        sliceItems(l!, (kind) => `Cannot chunk type ${kind}`),
      ),
    ),
  ),
  ...['slice', 'mustSlice'].map((name) => fn(name, [ANY], ANY, ([l, ...indices]) => slice(l!, indices), ANY)),
  ...['deepCopy', 'mustDeepCopy'].map((name) => fn(name, [ANY], ANY, ([v]) => deepCopy(v!))),
  fn('fromJson', ['string'], ANY, ([s]) => {
    try {
      return unmarshal(s as string);
    } catch {
      return null;
    }
  }),
  fn('mustFromJson', ['string'], ANY, ([s]) => unmarshal(s as string)),
  fn('mustToJson', [ANY], 'string', ([v]) => marshal(v!)),
  fn('mustToPrettyJson', [ANY], 'string', ([v]) => marshal(v!, { indent: '  ' })),
  fn('mustToRawJson', [ANY], 'string', ([v]) => marshal(v!, { escapeHTML: false })),
];
