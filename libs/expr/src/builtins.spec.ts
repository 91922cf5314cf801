import { describe, expect, it } from '@jest/globals';

import { goFormat, goTypeOf } from './index.js';
import { compileError, goValue, runtimeError } from './spec-helpers.js';

describe('builtins', () => {
  it.each<[string, string]>([
    ['len([1, 2, 3])', '3'],
    ['len({a: 1})', '1'],
    ['len(payload.list)', '2'],
    ['type(1)', 'int'],
    ['type(1.5)', 'float'],
    ['type("")', 'string'],
    ['type(nil)', 'nil'],
    ['type([])', 'array'],
    ['type({})', 'map'],
    ['type(true)', 'bool'],
    ['type(payload.foo)', 'map'],
    ['abs(-3)', '3'],
    ['abs(-2.5)', '2.5'],
    ['ceil(1.2)', '2'],
    ['floor(-1.2)', '-2'],
    ['round(2.5)', '3'],
    ['round(-2.5)', '-3'],
    ['ceil(3)', '3'],
    ['int("12")', '12'],
    ['int(3.9)', '3'],
    ['int(-3.9)', '-3'],
    ['int(payload.foo.numeric)', '8675309'],
    ['float("1.5")', '1.5'],
    ['float(2)', '2'],
    ['string(payload.foo.numeric)', '8.675309e+06'],
    ['string(payload.foo.pr)', '112'],
    ['string(payload.list)', '[one two]'],
    ['string(nil)', '<nil>'],
    ['trim("  a \\n")', 'a'],
    ['trim("xxaxx", "x")', 'a'],
    ['trimPrefix("foo-bar", "foo-")', 'bar'],
    ['trimPrefix(" x")', 'x'],
    ['trimSuffix("foo-bar", "-bar")', 'foo'],
    ['upper("abc")', 'ABC'],
    ['lower("ÀBC")', 'àbc'],
    ['upper("ß")', 'ß'],
    ['split("a,b,c", ",")', '[a b c]'],
    ['split("a,b,c", ",", 2)', '[a b,c]'],
    ['split("abc", "")', '[a b c]'],
    ['splitAfter("a,b", ",")', '[a, b]'],
    ['replace("aaa", "a", "b")', 'bbb'],
    ['replace("aaa", "a", "b", 2)', 'bba'],
    ['replace("ab", "", "-")', '-a-b-'],
    ['repeat("ab", 3)', 'ababab'],
    // Ranges near 2^62 count in int64: a float loop never ended there (the process died).
    ['4611686018427387904 .. 4611686018427387905', '[4611686018427387904 4611686018427387905]'],
    ['9223372036854775807 .. 9223372036854775807', '[9223372036854775807]'],
    ['3 .. 1', '[]'],
    ['-7 .. 9223372036854775807', '[]'], // the size overflows int64, as in Go
    ['join(["a", "b"], "-")', 'a-b'],
    ['join(["a", "b"])', 'ab'],
    ['join(split("a,b", ","), "+")', 'a+b'],
    ['indexOf("hello", "l")', '2'],
    ['lastIndexOf("hello", "l")', '3'],
    ['indexOf("hello", "z")', '-1'],
    // strconv.ParseFloat reads hexadecimal floats
    ['float("0x1p-2")', '0.25'],
    ['float("-0X1.8p1")', '-3'],
    // strings.Index: byte offsets
    ['indexOf("日本語", "本")', '3'],
    ['lastIndexOf("日本語日", "日")', '9'],
    ['hasPrefix("foo", "f")', 'true'],
    ['hasSuffix("foo", "f")', 'false'],
    ['max(1, 3, 2)', '3'],
    ['max([1, 4.5], 2)', '4.5'],
    ['min([4, 2.5])', '2.5'],
    ['mean([1, 2, 3, 4])', '2.5'],
    ['median([3, 1, 2])', '2'],
    ['median([4, 1, 3, 2])', '2.5'],
    ['toJSON({b: [1, 2.5], a: "<x>"})', '{\n  "a": "\\u003cx\\u003e",\n  "b": [\n    1,\n    2.5\n  ]\n}'],
    ['toJSON(1) == "1"', 'true'],
    ['fromJSON("{\\"a\\": [1, 2]}").a[1]', '2'],
    ['toBase64("hi")', 'aGk='],
    ['fromBase64("aGk=")', 'hi'],
    ['first([1, 2])', '1'],
    ['last([1, 2])', '2'],
    ['first([])', '<nil>'],
    ['get([1, 2], 5)', '<nil>'],
    ['get({a: 1}, "a")', '1'],
    ['get(payload.missing, "a")', '<nil>'],
    ['take([1, 2, 3], 2)', '[1 2]'],
    ['take([1], 5)', '[1]'],
    ['keys({a: 1})', '[a]'],
    ['values({a: 1})', '[1]'],
    ['toPairs({a: 1})', '[[a 1]]'],
    ['fromPairs([["a", 1], ["b", 2]])', 'map[a:1 b:2]'],
    ['reverse([1, 2, 3])', '[3 2 1]'],
    ['uniq([1, 1.0, 2, "a", "a"])', '[1 2 a]'],
    ['concat([1], [2, 3], [])', '[1 2 3]'],
    ['flatten([1, [2, [3]]])', '[1 2 3]'],
    ['sort([3, 1, 2])', '[1 2 3]'],
    ['sort(["b", "a", "c"], "desc")', '[c b a]'],
    ['1..3', '[1 2 3]'],
    ['3..1', '[]'],
  ])('%s → %s', (source, expected) => {
    expect(goFormat(goValue(source))).toBe(expected);
  });

  it('keeps Go result types', () => {
    expect(goTypeOf(goValue('len("abc")'))).toBe('int');
    expect(goTypeOf(goValue('split("a", ",")'))).toBe('[]string');
    expect(goTypeOf(goValue('1..2'))).toBe('[]int');
    expect(goTypeOf(goValue('groupBy([1], #)'))).toBe('map[interface {}][]interface {}');
    expect(goTypeOf(goValue('ceil(1)'))).toBe('float64');
  });

  it('groups by bytes: a uint8 key is hashable and found by value', () => {
    // a string constant is rejected at compile time; a string of unknown type ranges over its bytes
    const env = { p: { s: 'abca' } };
    expect(goFormat(goValue('groupBy(p.s, #)', env))).toBe('map[97:[97 97] 98:[98] 99:[99]]');
    expect(goFormat(goValue('groupBy(p.s, #)[p.s[3]]', env))).toBe('[97 97]');
    // an int 97 is another key than the byte 97
    expect(goValue('len(groupBy(p.s, #)[97])', env)).toBe(0n);
  });

  it.each<[string, string]>([
    ['len(1)', 'invalid argument for len (type int)'],
    ['len(1, 2)', 'invalid number of arguments (expected 1, got 2)'],
    ['upper(1)', 'cannot use int as argument (type string) to call upper '],
    ['upper()', 'not enough arguments to call upper'],
    ['upper("a", "b")', 'too many arguments to call upper'],
    ['hasPrefix(nil, "a")', 'cannot use nil as argument (type string) to call hasPrefix'],
    ['abs("x")', 'invalid argument for abs (type string)'],
    ['int(true)', 'invalid argument for int (type bool)'],
    ['max()', 'not enough arguments to call max'],
    ['max("a", 1)', 'invalid argument for max (type string)'],
    ['concat(1)', 'cannot concat int'],
    ['keys([1])', 'cannot get keys from []interface {}'],
    ['first(1)', 'cannot get first element from int'],
    ['take([1], "a")', 'cannot take string elements'],
    ['repeat("a", "b")', 'cannot use string as argument (type int) to call repeat '],
    ['join([1], 2)', 'too many arguments to call join'],
    ['join(1)', 'cannot use int as argument (type []string) to call join '],
  ])('%s fails to compile: %s', (source, reason) => {
    expect(compileError(source).reason).toBe(reason);
  });

  it.each<[string, string]>([
    ['len(payload.n)', 'invalid argument for len (type float64)'],
    ['upper(payload.n)', 'interface conversion: interface {} is float64, not string'],
    ['hasPrefix(payload.missing, "a")', 'interface conversion: interface {} is nil, not string'],
    ['int("1.5")', 'invalid operation: int(1.5)'],
    ['float("abc")', 'invalid operation: float(abc)'],
    ['repeat("a", -1)', 'invalid argument for repeat (expected positive integer, got -1)'],
    ['join(payload.ids, ",")', 'interface conversion: interface {} is float64, not string'],
    ['concat(payload.list, payload.missing)', 'cannot concat invalid'],
    ['fromBase64("a")', 'illegal base64 data at input byte 0'],
    ['fromJSON("")', 'unexpected end of JSON input'],
    ['sort([1, 2], "up")', 'invalid order up, expected asc or desc'],
    ['1..2000000', 'memory budget exceeded'],
  ])('%s fails at runtime: %s', (source, reason) => {
    expect(runtimeError(source).reason).toBe(reason);
  });
});

describe('bitwise builtins (Go int, 64 bits)', () => {
  it.each<[string, string]>([
    ['bitand(12, 10)', '8'],
    ['bitor(12, 10)', '14'],
    ['bitxor(8, -1)', '-9'],
    ['bitnand(255, -1)', '0'],
    ['bitnot(5)', '-6'],
    ['bitshl(1, 63)', '-9223372036854775808'],
    ['bitshl(1, 64)', '0'],
    ['bitshr(-1, 80)', '-1'],
    ['bitushr(-1, 60)', '15'],
  ])('%s → %s', (source, expected) => {
    expect(goFormat(goValue(source))).toBe(expected);
  });

  it('checks argument types at compile time when known, at run time otherwise', () => {
    expect(compileError('bitand(1.5, 1)').reason).toBe(
      'cannot use float64 as argument (type int) to call bitand ',
    );
    expect(runtimeError('bitand(payload.f, 1)').reason).toBe(
      'cannot use float64 as argument (type int) to call bitand',
    );
    expect(runtimeError('bitor(payload.missing, 1)').reason).toBe(
      'cannot use <nil> as argument (type int) to call bitor',
    );
    expect(runtimeError('bitshl(1, -1)').reason).toBe(
      'invalid operation: negative shift count -1 (type int)',
    );
  });
});

describe('get and the aggregate builtins as expr checks and runs them', () => {
  it('get: nil when out of range or missing, an error for a bad index or key type', () => {
    expect(goValue('get([1], 5)')).toBeNull();
    expect(goValue('get(payload.foo, "nope")')).toBeNull();
    expect(runtimeError('get(payload.s, nil)').reason).toBe('invalid operation: int(<nil>)');
    expect(runtimeError('get(payload.foo, 1)').reason).toBe(
      'reflect.Value.MapIndex: value of type int is not assignable to type string',
    );
  });

  it('mean/median of an argument of unknown type have an unknown type', () => {
    expect(runtimeError('median(payload.s, 2)["x"]').reason).toBe(
      'invalid argument for median (type string)',
    );
  });
});
