import { describe, expect, it } from '@jest/globals';

import { goFormat, toParameterValue } from './index.js';
import { goValue, runtimeError } from './spec-helpers.js';

describe('equality (runtime.Equal)', () => {
  it.each<[string, boolean]>([
    ['nil == nil', true],
    ['nil == "x"', false],
    ['payload.missing == nil', true],
    ['payload.missing != ""', true],
    ['1 == 1.0', true],
    ['payload.n == 1', true],
    ['payload.n == "1"', false],
    ['payload.s == 1', false],
    ['payload.ids == [1, 2]', true],
    ['payload.ids == [1.0, 2.0]', true],
    ['[1.0] == [1]', true],
    ['[1, [2]] == [1, [2.0]]', true],
    ['[1, 2] == [2, 1]', false],
    ['[1] == [1, 1]', false],
    ['{a: 1} == {a: 1}', true],
    ['{a: 1} == {a: 1.0}', false],
    ['payload.m == {a: 2, z: 1}', false],
    ['payload.m == {a: 2.0, z: 1.0}', true],
    ['payload.foo == {bar: "baz", numeric: 8675309.0, bool: true, pr: 112.0}', true],
    ['metadata["x-valid"] == ["true"]', true],
    ['metadata["x-valid"] == "true"', false],
    ['true == true', true],
    ['"a" != "b"', true],
    ['split("a,b", ",") == ["a", "b"]', false],
    ['split("a,b", ",") == split("a,b", ",")', true],
    ['1..3 == [1, 2, 3]', false],
  ])('%s → %s', (source, expected) => {
    expect(goValue(source)).toBe(expected);
  });
});

describe('member and index access', () => {
  it.each<[string, unknown]>([
    ['payload.foo.bar', 'baz'],
    ['payload["foo"]["bar"]', 'baz'],
    ['payload.foo?.bar', 'baz'],
    ['payload.missing', null],
    ['payload.missing?.x', null],
    ['payload.missing?.x.y.z', null],
    ['payload.missing?.[0]', null],
    ['payload.list?.[1]', 'two'],
    ['payload.list[0]', 'one'],
    ['payload.list[-1]', 'two'],
    ['payload.list[1.0]', 'two'],
    ['[1, 2, 3, 4][1:3]', [2n, 3n]],
    ['[1, 2, 3][:2]', [1n, 2n]],
    ['[1, 2, 3][1:]', [2n, 3n]],
    ['[1, 2, 3][-2:]', [2n, 3n]],
    ['[1, 2, 3][:]', [1n, 2n, 3n]],
    ['[1, 2, 3][2:1]', []],
    ['[1, 2, 3][0:10]', [1n, 2n, 3n]],
    ['"héllo"[1:3]', 'é'],
    ['"héllo"[1:2]', '\udcc3'],
    ['metadata["X-Valid"]', null],
    ['metadata.ignored', null],
    ['$env.discriminator', 'my-discriminator'],
    ['$env["namespace"]', 'argo'],
    ['{"a-b": 1}["a-b"]', 1n],
    ['{a: {b: [10, 20]}}.a.b[1]', 20n],
    ['payload.missing ?? "default"', 'default'],
    ['payload.foo.bar ?? "x"', 'baz'],
    ['payload.commits ?? []', []],
  ])('%s', (source, expected) => {
    expect(goValue(source)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['payload.a.b', 'cannot fetch b from <nil>'],
    ['payload.missing[0]', 'cannot fetch 0 from <nil>'],
    ['payload.n.x', 'cannot fetch x from float64'],
    ['payload.list[5]', 'index out of range: 5 (array length is 2)'],
    ['payload.list[-3]', 'index out of range: -1 (array length is 2)'],
    ['payload.list.x', 'invalid operation: int(string)'],
    [
      'payload.foo[payload.n]',
      'reflect.Value.MapIndex: value of type float64 is not assignable to type string',
    ],
    ['payload.n[1:2]', 'cannot slice float64'],
  ])('%s fails at runtime: %s', (source, reason) => {
    expect(runtimeError(source).reason).toBe(reason);
  });
});

describe('arithmetic keeps Go int/float types', () => {
  it.each<[string, unknown]>([
    ['1 + 2', 3n],
    ['7 / 2', 3.5],
    ['4 / 2', 2],
    ['7 % 3', 1n],
    ['-7 % 3', -1n],
    ['2 * 3.5', 7],
    ['payload.n + 1', 2],
    ['payload.n * 2 == 2', true],
    ['2 ** 10', 1024],
    ['1 / 0', Infinity],
    ['-1 / 0', -Infinity],
    ['9223372036854775807 + 1', -9223372036854775808n],
    ['"con" + "cat"', 'concat'],
    ['"pr-" + string(payload.n)', 'pr-1'],
    ['"pr-" + string(int(payload.foo.numeric))', 'pr-8675309'],
    ['1 < 2.5', true],
    ['"a" < "b"', true],
    ['"B" < "a"', true],
    ['payload.n >= 1', true],
    ['-payload.n', -1],
  ])('%s', (source, expected) => {
    expect(goValue(source)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['"x" + payload.n', 'invalid operation: string + float64'],
    ['"pr-" + payload.foo.pr', 'invalid operation: string + float64'],
    ['payload.n + "x"', 'invalid operation: float64 + string'],
    ['payload.missing + 1', 'invalid operation: <nil> + int'],
    ['payload.n % 2', 'invalid operation: float64 % int'],
    ['1 % (payload.n - payload.n > 0 ? 1 : 0)', 'runtime error: integer divide by zero'],
    ['payload.missing < 1', 'invalid operation: <nil> < int'],
    ['payload.s > 1', 'invalid operation: string > int'],
    ['-payload.s', 'invalid operation: - string'],
    ['payload.list * 2', 'invalid operation: []interface {} * int'],
  ])('%s fails at runtime: %s', (source, reason) => {
    expect(runtimeError(source).reason).toBe(reason);
  });

  it('reports runtime errors with expr location format', () => {
    expect(runtimeError('"x" + payload.n').message).toBe(
      'invalid operation: string + float64 (1:5)\n | "x" + payload.n\n | ....^',
    );
    expect(runtimeError('payload.a.b == 1').message).toContain('cannot fetch b from <nil> (1:11)');
  });
});

describe('logic, conditionals and nil', () => {
  it.each<[string, unknown]>([
    ['payload.missing == nil && payload.n == 1', true],
    ['false && payload.a.b', false],
    ['true || payload.a.b', true],
    ['true && payload.s', 'x'],
    ['!payload.b', false],
    ['payload.n > 0 ? "pos" : "neg"', 'pos'],
    ['if payload.n > 5 { "big" } else { "small" }', 'small'],
    ['payload.missing ?? payload.missing2 ?? 0', 0n],
    // expr's constant folding: the other operand is dropped unevaluated, or returned as it is
    ['payload.missing.x && false', false],
    ['payload.missing.x || true', true],
    ['payload.s && true', 'x'],
    ['{a: 1, a: 2}.a', 1n],
    ['+payload.s', 'x'],
    ['abs(-0.0)', -0],
    ['5 ^ 42', 2.2737367544323207e29],
  ])('%s', (source, expected) => {
    expect(goValue(source)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['!payload.s', 'interface conversion: interface {} is string, not bool'],
    ['payload.missing && payload.b', 'interface conversion: interface {} is nil, not bool'],
    ['payload.n ? 1 : 2', 'interface conversion: interface {} is float64, not bool'],
  ])('%s fails at runtime: %s', (source, reason) => {
    expect(runtimeError(source).reason).toBe(reason);
  });
});

describe('string operators, in, matches', () => {
  it.each<[string, boolean]>([
    ['"abc" contains "b"', true],
    ['"abc" startsWith "ab"', true],
    ['"abc" endsWith "bc"', true],
    ['"abc" not contains "z"', true],
    ['"abc" not startsWith "a"', false],
    ['"abc" not endsWith "z"', true],
    ['payload.missing contains "a"', false],
    ['"a" contains payload.missing', false],
    ['payload.missing startsWith "a"', false],
    ['payload.missing endsWith "a"', false],
    ['payload.missing matches "a"', false],
    ['"x" in ["x", "y"]', true],
    ['"x" not in ["y"]', true],
    ['1 in [1.0, 2.0]', true],
    ['"true" in metadata["x-valid"]', true],
    ['"a" in metadata["x-twice"]', true],
    ['"a" in {a: 1}', true],
    ['"foo" in payload', true],
    ['"nope" in payload', false],
    ['"a" in payload.missing', false],
    ['nil in [nil]', true],
    ['"abc" matches "b"', true],
    ['"abc" matches "^b"', false],
    ['"abc" not matches "z"', true],
    ['payload.formatted matches "^My%[A-Z]"', true],
  ])('%s → %s', (source, expected) => {
    expect(goValue(source)).toBe(expected);
  });

  it.each<[string, string]>([
    ['payload.n contains "1"', 'interface conversion: interface {} is float64, not string'],
    ['"1" startsWith payload.n', 'interface conversion: interface {} is float64, not string'],
    ['payload.list matches "x"', 'interface conversion: interface {} is []interface {}, not string'],
    ['"a" in payload.s', 'operator "in" not defined on string'],
    ['payload.s matches payload.q + "("', 'error parsing regexp: missing closing ): `a"b(`'],
  ])('%s fails at runtime: %s', (source, reason) => {
    expect(runtimeError(source).reason).toBe(reason);
  });

  it('counts runes, not UTF-16 units', () => {
    expect(goValue('len("héllo") == 5')).toBe(true);
    expect(goValue('len("😀")')).toBe(1n);
  });
});

describe('closures', () => {
  it.each<[string, string]>([
    ['all([1, 2], # > 0)', 'true'],
    ['any([1, 2], # > 1)', 'true'],
    ['none([1, 2], # > 2)', 'true'],
    ['one([1, 2, 3], # == 2)', 'true'],
    ['filter([1, 2, 3, 4], # % 2 == 0)', '[2 4]'],
    ['map([1, 2], # * 10)', '[10 20]'],
    ['map(["a", "b"], #index)', '[0 1]'],
    ['filter([{a: 1}, {a: 2}], .a > 1)', '[map[a:2]]'],
    ['map([{a: 1}, {a: 2}], {.a})', '[1 2]'],
    ['count([1, 2, 3], # > 1)', '2'],
    ['count([true, false, true])', '2'],
    ['sum([1, 2, 3])', '6'],
    ['sum([1, 2.5])', '3.5'],
    ['sum([1, 2, 3], # * 2)', '12'],
    ['sum([])', '0'],
    ['find([1, 2, 3], # > 1)', '2'],
    ['find([1, 2, 3], # > 5)', '<nil>'],
    ['findIndex([1, 2, 3], # > 1)', '1'],
    ['findLast([1, 2, 3], # > 1)', '3'],
    ['findLastIndex([1, 2, 3], # > 1)', '2'],
    ['findIndex([1], # > 1)', '<nil>'],
    ['findLastIndex([1], # > 1)', '<nil>'],
    ['groupBy([1, 2, 3, 4], # % 2 == 0)', 'map[false:[1 3] true:[2 4]]'],
    ['groupBy(["a", "bb", "cc"], len(#))[2]', '[bb cc]'],
    ['sortBy([3, 1, 2], #)', '[1 2 3]'],
    ['sortBy([{n: 2}, {n: 1}], .n)', '[map[n:1] map[n:2]]'],
    ['sortBy([1, 3, 2], #, "desc")', '[3 2 1]'],
    ['reduce([1, 2, 3], #acc + #)', '6'],
    ['reduce([1, 2, 3], #acc + #, 10)', '16'],
    ['reduce([1, 2], #acc + #index, 0)', '1'],
    ['map([[1, 2], [3]], sum(#))', '[3 3]'],
    ['map([1, 2], map([10, 20], # + 1))', '[[11 21] [11 21]]'],
    ['any(payload.commits ?? [], true)', 'false'],
    ['filter(payload.list, # startsWith "t")', '[two]'],
  ])('%s → %s', (source, expected) => {
    expect(goFormat(goValue(source))).toBe(expected);
  });

  it.each<[string, string]>([
    ['all(payload.missing, true)', 'reflect: call of reflect.Value.Len on zero Value'],
    ['filter(payload.list, #)', 'interface conversion: interface {} is string, not bool'],
    ['reduce([], #acc)', 'index out of range: 0 (array length is 0)'],
    ['sortBy([1, "a"], #)', 'invalid operation: string < int'],
  ])('%s fails at runtime: %s', (source, reason) => {
    expect(runtimeError(source).reason).toBe(reason);
  });
});

describe('nil slices (empty, but nil for ==, ?? and JSON)', () => {
  it.each<[string, unknown]>([
    ['concat([], [])', 'null'],
    ['sort(payload.missing)', 'null'],
    ['split("a", ",", 0)', 'null'],
    ['groupBy([1], #)[5]', 'null'],
    ['concat([1])', '[1]'],
  ])('%s marshals to %s', (source, json) => {
    expect(toParameterValue(goValue(source))).toBe(json);
  });

  it.each<[string, unknown]>([
    ['sort(payload.missing) != nil', false],
    ['len(groupBy([1], #)[5])', 0n],
    ['concat([], []) ?? "none"', 'none'],
    ['concat([], []) == []', true],
  ])('%s → %s', (source, expected) => {
    expect(goValue(source)).toEqual(expected);
  });
});

describe('closures over a map and slices of nil slices, as in expr', () => {
  it('loops over a map without reading its elements, fails when it reads one', () => {
    expect(goValue('none(payload.foo, false)')).toBe(true);
    expect(goValue('count(payload.foo, true)')).toBe(4n);
    expect(runtimeError('filter(payload.foo, true)').reason).toBe(
      'reflect: call of reflect.Value.Index on map Value',
    );
    expect(runtimeError('map(payload.foo, #)').reason).toBe(
      'reflect: call of reflect.Value.Index on map Value',
    );
  });

  it('keeps a nil slice nil when sliced', () => {
    expect(goValue('sort(payload.missing)[1:] == nil')).toBe(true);
  });
});

describe('== between operands the checker types as int or string asserts their Go types (OpEqualInt)', () => {
  it.each<[string, string]>([
    // max(int, float) is typed as its first argument (int) but returns the float
    ['len(payload.l) != - -max(1_000, 1e21)', 'interface conversion: interface {} is float64, not int'],
    // findIndex is typed int but gives nil when nothing matches
    ['findIndex([], # == 2.5) != int(7)', 'interface conversion: interface {} is nil, not int'],
  ])('%s → %s', (source, reason) => {
    expect(runtimeError(source).reason).toBe(reason);
  });

  it('compares freely when either side is not typed int', () => {
    expect(goValue('findIndex([], # == 2.5) == nil')).toBe(true);
    expect(goValue('payload.n == 1')).toBe(true);
  });
});
