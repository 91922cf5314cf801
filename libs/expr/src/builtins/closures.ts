// Runtime of the builtins that take a closure (`#`, `#index`, `#acc`).
import { fail } from '../errors.js';
import { arithmetic, asBool, asString, compare, growMemory, stringBytes } from '../runtime.js';
import { canonicalKey, goKindName, goTypeName, GoInt, tagged } from '../values.js';
import type { ExprMap, ExprValue, MapKey } from '../values.js';

export type Closure = (item: ExprValue, index: number, accumulator?: ExprValue) => ExprValue;

export const CLOSURE_BUILTINS: ReadonlySet<string> = new Set(
  'all none any one filter map count sum find findIndex findLast findLastIndex groupBy sortBy reduce'.split(
    ' ',
  ),
);

/** Stands for an element of a map iterated by a closure builtin: reading it is Go's reflect Index panic. */
const MAP_ELEMENT = Symbol('map element');

export function checkElement(item: ExprValue): ExprValue {
  if ((item as unknown) === MAP_ELEMENT) fail('reflect: call of reflect.Value.Index on map Value');
  return item;
}

/** The collection of a closure builtin; Go's reflect-based iteration fails like this on anything else. */
export function iterable(collection: ExprValue): readonly ExprValue[] {
  if (Array.isArray(collection)) return collection;
  if (typeof collection === 'string') return stringBytes(collection);
  // expr loops over a map's length; only reading an element (`#`) fails, with reflect's Index error
  if (collection instanceof Map)
    return new Array<ExprValue>(collection.size).fill(MAP_ELEMENT as unknown as ExprValue);
  const kind = goKindName(collection);
  const method = kind === 'map' || kind === 'string' ? 'Index' : 'Len';
  return fail(`reflect: call of reflect.Value.${method} on ${kind === 'invalid' ? 'zero' : kind} Value`);
}

/**
 * Runs a closure builtin. `closure` is absent for `count(list)`/`sum(list)`; `extra` is the optional third
 * argument (reduce's initial value, sortBy's order).
 */
export function runClosureBuiltin(
  name: string,
  collection: ExprValue,
  closure: Closure | undefined,
  extra?: () => ExprValue,
): ExprValue {
  const items = iterable(collection);
  const apply: Closure = closure ?? ((item) => checkElement(item));
  const test = (item: ExprValue, index: number): boolean => asBool(apply(item, index));
  switch (name) {
    case 'all':
      return items.every(test);
    case 'any':
      return items.some(test);
    case 'none':
      return !items.some(test);
    case 'one':
      return items.filter(test).length === 1;
    case 'filter':
      return grown(items.filter(test).map(checkElement));
    case 'map':
      return grown(items.map((item, i) => apply(item, i)));
    case 'count':
      return BigInt(items.filter(test).length);
    case 'sum':
      return items.reduce<ExprValue>((total, item, i) => arithmetic('+', total, apply(item, i)), 0n);
    case 'find':
      return checkElement(items.find(test) ?? null);
    case 'findIndex':
      return indexOrNil(items.findIndex(test));
    case 'findLast':
      return checkElement(items.findLast(test) ?? null);
    case 'findLastIndex':
      return indexOrNil(items.findLastIndex(test));
    case 'groupBy':
      return groupBy(items, apply);
    case 'sortBy':
      return grown(sortBy(items, apply, extra ? asString(extra()) : 'asc'));
    case 'reduce':
      return reduce(items, apply, extra);
    default:
      return fail(`unknown builtin ${name}`);
  }
}

/** The list map(), filter() and sortBy() make counts against the run's memory budget. */
function grown(list: ExprValue[]): ExprValue[] {
  growMemory(list.length);
  return list;
}

/** expr's findIndex/findLastIndex give nil, not -1, when nothing matches. */
function indexOrNil(index: number): ExprValue {
  return index < 0 ? null : BigInt(index);
}

function groupBy(items: readonly ExprValue[], key: Closure): ExprMap {
  const groups: ExprMap = tagged(new Map(), 'map[interface {}][]interface {}');
  items.forEach((element, i) => {
    const k = key(element, i);
    const item = checkElement(element);
    if (typeof k === 'object' && k !== null && !(k instanceof GoInt))
      fail(`runtime error: hash of unhashable type ${goTypeName(k)}`);
    const groupKey = canonicalKey(groups, k as MapKey);
    const group = groups.get(groupKey);
    if (Array.isArray(group)) group.push(item);
    else groups.set(groupKey, [item]);
  });
  return groups;
}

function sortBy(items: readonly ExprValue[], key: Closure, order: string): ExprValue[] {
  if (order !== 'asc' && order !== 'desc') fail(`unknown order ${order}, expected asc or desc`);
  const sign = order === 'desc' ? -1 : 1;
  const keyed = items.map((item, i) => ({ key: key(item, i), item: checkElement(item) }));
  keyed.sort((a, b) => sign * Math.sign(compare(a.key, b.key, '<')));
  return keyed.map((k) => k.item);
}

function reduce(items: readonly ExprValue[], step: Closure, initial?: () => ExprValue): ExprValue {
  let start = 0;
  let accumulator: ExprValue;
  if (initial) accumulator = initial();
  else {
    if (items.length === 0) fail('index out of range: 0 (array length is 0)');
    accumulator = checkElement(items[0]!);
    start = 1;
  }
  for (let i = start; i < items.length; i++) {
    accumulator = step(items[i]!, i, accumulator);
  }
  return accumulator;
}
