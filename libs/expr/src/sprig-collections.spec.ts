import { describe, expect, it } from '@jest/globals';

import { marshal } from './go-json.js';
import { goTypeOf } from './index.js';
import { goValue, META_ENV, runtimeError } from './spec-helpers.js';

const json = (source: string): unknown => marshal(goValue(source, META_ENV));

// Expected values from sprig v3.3.0 under expr v1.17.8 (the reference results).
describe('sprig dict and list functions', () => {
  it.each<[string, string]>([
    ['sprig.dict("a", 1, "b")', '{"a":1,"b":""}'],
    ['sprig.dict(nil, 100)', '{"\\u003cnil\\u003e":100}'],
    ['sprig.pick({a: 1, b: {c: 2}}, "a", "x")', '{"a":1}'],
    ['sprig.pick(payload.missing, "a")', '{}'],
    ['sprig.omit({a: 1, b: 2}, "a")', '{"b":2}'],
    ['sprig.dig("foo", "bar", "none", payload)', '"baz"'],
    ['sprig.dig("foo", "nope", "none", payload)', '"none"'],
    ['sprig.concat([1, 2], [], ["a"])', '[1,2,"a"]'],
    ['sprig.concat([], [])', 'null'],
    ['sprig.reverse([nil, 1, "", 0])', '[0,"",1,null]'],
    ['sprig.chunk(2, [1, 2, 3])', '[[1,2],[3]]'],
    ['sprig.chunk(1, [])', '[]'],
    ['sprig.slice([nil, 1, "", 0], 1, 3)', '[1,""]'],
    ['sprig.mustSlice([], 1, -3)', 'null'],
    ['sprig.deepCopy({a: [1]})', '{"a":[1]}'],
    ['sprig.fromJson("{\\"a\\": [1]}")', '{"a":[1]}'],
    ['sprig.fromJson("a,b,c")', 'null'],
    ['sprig.mustToJson("<")', '"\\"\\\\u003c\\""'],
    ['sprig.sortAlpha(sprig.keys({b: 1, a: 2}, {c: 3}))', '["a","b","c"]'],
    ['sprig.values({a: [1]})', '[[1]]'],
    ['sprig.pluck("a", {a: 1}, {b: 2}, {a: 3})', '[1,3]'],
    ['sprig.osBase("/a/b.txt")', '"b.txt"'],
    ['sprig.osIsAbs("/a")', 'true'],
  ])('%s gives %s', (source, expected) => {
    expect(json(source)).toBe(expected);
  });

  it('keeps Go types: chunk is [][]interface {}, slice keeps the list type, concat of nothing is a nil list', () => {
    expect(goTypeOf(goValue('sprig.chunk(1, [1])', META_ENV))).toBe('[][]interface {}');
    expect(goTypeOf(goValue('sprig.slice(sprig.splitList(",", "a,b"), 1)', META_ENV))).toBe('[]string');
    expect(goValue('sprig.concat([]) == nil', META_ENV)).toBe(true);
  });

  it.each<[string, string]>([
    ['sprig.dig("a", "b")', 'dig needs at least three arguments'],
    [
      'sprig.dig("a", "b", [])',
      'interface conversion: interface {} is []interface {}, not map[string]interface {}',
    ],
    ['sprig.dig(1, "b", {})', 'interface conversion: interface {} is int, not string'],
    ['sprig.reverse(nil)', 'runtime error: invalid memory address or nil pointer dereference'],
    ['sprig.reverse("ab")', 'Cannot find reverse on type string'],
    ['sprig.concat([1], 2)', 'Cannot concat type int as list'],
    ['sprig.chunk(0, [1, 2])', 'runtime error: makeslice: len out of range'],
    ['sprig.slice([1, 2], 1, 5)', 'reflect.Value.Slice: slice index out of bounds'],
    ['sprig.deepCopy(nil)', 'reflect: call of reflect.Value.Type on zero Value'],
    ['sprig.fail("stop here")', 'stop here'],
  ])('%s fails: %s', (source, message) => {
    expect(runtimeError(source, META_ENV).reason).toBe(message);
  });
});
