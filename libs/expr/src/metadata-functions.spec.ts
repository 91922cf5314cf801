import { describe, expect, it } from '@jest/globals';

import { compile, evaluate, execute, goTypeOf } from './index.js';
import { compileError, ENV, goValue, META_ENV, runtimeError } from './spec-helpers.js';

describe('metadata expressions: sprig, toJson, jsonpath, asInt, asFloat', () => {
  it.each<[string, unknown]>([
    ['"my-wft-pr-" + sprig.toString(payload.foo.pr) + "-"', 'my-wft-pr-112-'],
    ['sprig.toString(payload.foo.numeric)', '8.675309e+06'],
    ['sprig.toString(1)', '1'],
    ['sprig.toString(payload.list)', '[one two]'],
    ['sprig.trunc(3, "abcdef")', 'abc'],
    ['sprig.trunc(-2, "abcdef")', 'ef'],
    ['sprig.trunc(10, "abc")', 'abc'],
    ['sprig.substr(2, 10, "ab")', ''],
    ['sprig.lower("ABC")', 'abc'],
    ['sprig.upper("abc")', 'ABC'],
    ['sprig.trim("  x ")', 'x'],
    ['sprig.replace(" ", "-", "a b c")', 'a-b-c'],
    ['sprig.default("d", "")', 'd'],
    ['sprig.default("d", "x")', 'x'],
    ['sprig.default("d", payload.missing)', 'd'],
    ['sprig.default("d")', 'd'],
    ['sprig.default("d", 0)', 'd'],
    ['sprig.quote("a\\"b")', '"a\\"b"'],
    ['sprig.quote("a", nil, 1)', '"a" "1"'],
    ['sprig.squote("a")', "'a'"],
    ['sprig.cat("a", 1, nil, "b")', 'a 1 b'],
    ['sprig.contains("b", "abc")', true],
    ['sprig.hasPrefix("a", "abc")', true],
    ['sprig.hasSuffix("a", "abc")', false],
    ['sprig.join("-", ["a", "b"])', 'a-b'],
    ['sprig.join(",", payload.list)', 'one,two'],
    ['sprig.splitList(",", "a,b")', ['a', 'b']],
    ['sprig.toJson({a: "<"})', '{"a":"\\u003c"}'],
    ['sprig.b64enc("hi")', 'aGk='],
    ['sprig.b64dec("aGk=")', 'hi'],
    ['sprig.sha256sum("abc")', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['sprig.substr(1, 3, "abcdef")', 'bc'],
    ['sprig.nospace("a b\\tc")', 'abc'],
    ['sprig.kebabcase("FirstName")', 'first-name'],
    ['sprig.snakecase("HTTPServer")', 'http_server'],
    ['sprig.camelcase("http_server")', 'HttpServer'],
    ['sprig.camelcase("_complex__case_")', '_Complex_Case_'],
    ['sprig.title("hello world")', 'Hello World'],
    ['sprig.int("42")', 42],
    ['sprig.int(3.9)', 3],
    ['sprig.int("nope")', 0],
    ['sprig.float64("1.5")', 1.5],
    ['sprig.add(1, 2, payload.n)', 4],
    ['sprig.sub(5, 2)', 3],
    ['sprig.repeat(2, "ab")', 'abab'],
    ['toJson(payload.foo)', '{"bar":"baz","bool":true,"numeric":8675309,"pr":112}'],
    ['toJson("<&>")', '"\\u003c\\u0026\\u003e"'],
    ['jsonpath("{\\"a\\":{\\"b\\":[1,2]}}", "$.a.b[1]")', 2],
    ['jsonpath(toJson(payload), "$.foo.bar")', 'baz'],
    ['jsonpath(toJson(payload), "$[\'list\'][-1]")', 'two'],
    ['jsonpath(toJson(payload), "$.list[*]")', ['one', 'two']],
    ['asInt("12")', 12],
    ['asInt(payload.foo.numeric)', 8675309],
    ['asFloat("1.5")', 1.5],
  ])('%s', (source, expected) => {
    expect(evaluate(source, ENV, { metadataFunctions: true })).toEqual(expected);
  });

  it('keeps Go types of results, e.g. for "must evaluate to a string, not a <T>"', () => {
    expect(goTypeOf(goValue('asInt("12")', META_ENV))).toBe('int');
    expect(goTypeOf(goValue('payload.foo.numeric', META_ENV))).toBe('float64');
  });

  it('passes nil as the zero value of the parameter type, types int64 results, cuts bytes', () => {
    expect(evaluate('sprig.lower(payload.missing)', META_ENV)).toBe('');
    expect(evaluate('sprig.ternary(1, 2, nil)', META_ENV)).toBe(2);
    expect(goTypeOf(goValue('sprig.add1(1)', META_ENV))).toBe('int64');
    expect(evaluate('sprig.trunc(3, "日本語")', META_ENV)).toBe('日');
    expect(evaluate('sprig.kindOf(payload.missing) + sprig.typeOf(1.5)', META_ENV)).toBe('invalidfloat64');
  });

  it('gives every sprig function its Go signature, implemented or not', () => {
    expect(goTypeOf(goValue('sprig.wrapWith', META_ENV))).toBe('func(int, string, string) string');
    expect(goTypeOf(goValue('sprig.add', META_ENV))).toBe('func(...interface {}) int64');
  });

  it('has sprig regex functions with RE2 semantics', () => {
    expect(evaluate('sprig.regexReplaceAll("a(x*)b", "-ab-axxb-", "${1}W")', META_ENV)).toBe('-W-xxW-');
    expect(evaluate('sprig.regexReplaceAll("a*", "baaac", "-")', META_ENV)).toBe('-b-c-');
    expect(evaluate('sprig.regexFindAll("a.", "acabad", -1)', META_ENV)).toEqual(['ac', 'ab', 'ad']);
    expect(evaluate('sprig.regexSplit("a", "banana", -1)', META_ENV)).toEqual(['b', 'n', 'n', '']);
    expect(evaluate('sprig.regexFind("(a+)+$", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab")', META_ENV)).toBe('');
  });

  it.each<[string, string]>([
    ['sprig.lower(payload.n)', 'reflect: Call using float64 as type string'],
    ['sprig.trunc(5.0, "abc")', 'reflect: Call using float64 as type int'],
    ['sprig.lower()', 'reflect: Call with too few input arguments'],
    ['sprig.lower("a", "b")', 'reflect: Call with too many input arguments'],
    ['sprig.nosuch(1)', 'reflect: call of reflect.Value.Call on zero Value'],
    ['sprig.uuidv4()', 'sprig.uuidv4 is not supported by this expr emulator'],
    ['sprig.substr(3, 10, "ab")', 'runtime error: slice bounds out of range [3:2]'],
    ['jsonpath("{}", "$.x")', 'key error: x not found in object'],
    ['jsonpath("{", "$")', 'unexpected end of JSON input'],
    ['jsonpath("{x", "$")', 'invalid character "x" in JSON input'],
    ['jsonpath("[1]", "$[3]")', 'index out of range: len: 1, idx: 3'],
    ['asInt("x")', 'invalid operation: int(x)'],
  ])('%s fails at runtime: %s', (source, reason) => {
    expect(runtimeError(source, META_ENV).reason).toBe(reason);
  });

  it.each<[string, string]>([
    ['jsonpath(1, "$")', 'cannot use int as argument (type string) to call jsonpath '],
    ['toJson()', 'not enough arguments to call toJson'],
    ['asInt(1, 2)', 'too many arguments to call asInt'],
  ])('%s fails to compile: %s', (source, reason) => {
    expect(compileError(source, META_ENV).reason).toBe(reason);
  });

  it('does not leak metadata functions into the selector environment', () => {
    expect(() => compile('sprig.toString(1)', ENV)).toThrow('unknown name sprig');
    expect(execute(compile('sprig.toString(1)', META_ENV), META_ENV)).toBe('1');
  });
});

describe('sprig list, dict and decimal functions (sprig v3.3.0, spf13/cast v1.10.0)', () => {
  const meta = (source: string): unknown => evaluate(source, META_ENV);

  it.each<[string, unknown]>([
    ['sprig.hello()', 'Hello!'],
    ['sprig.get(payload.m, "z")', 1],
    ['sprig.get(payload.m, "nope")', ''],
    ['sprig.get(payload.missing, "x")', ''], // nil is a nil map
    ['sprig.hasKey(payload.m, "a")', true],
    ['sprig.all(1, "x", [0])', true],
    ['sprig.all(1, "")', false],
    ['sprig.any(0, "", nil)', false],
    ['sprig.floor("2.7")', 2],
    ['sprig.ceil(2.1)', 3],
    ['sprig.until(3)', [0, 1, 2]],
    ['sprig.until(-2)', [0, -1]],
    ['sprig.untilStep(0, 10, 4)', [0, 4, 8]],
    ['sprig.untilStep(0, 10, -1)', []],
    ['sprig.toDecimal("0777")', 511],
    ['sprig.toDecimal("9")', 0],
    ['sprig.addf(0.1, 0.2)', 0.3], // exact decimals, not 0.30000000000000004
    ['sprig.subf(1, 0.9)', 0.1],
    ['sprig.mulf(1.1, 3)', 3.3],
    ['sprig.add1f("1.5")', 2.5],
    ['sprig.first(payload.list)', 'one'],
    ['sprig.last(payload.list)', 'two'],
    ['sprig.rest([1, 2, 3])', [2, 3]],
    ['sprig.initial([1, 2, 3])', [1, 2]],
    ['sprig.compact([0, 1, "", "a", nil])', [1, 'a']],
    ['sprig.uniq([1, 1, "1", 2])', [1, '1', 2]],
    ['sprig.without([1, 2, 3], 2)', [1, 3]],
    ['sprig.has(2, [1, 2])', true],
    ['sprig.has(2, nil)', false],
    ['sprig.append([1], 2)', [1, 2]],
    ['sprig.prepend([1], 0)', [0, 1]],
    ['sprig.sortAlpha(["b", "B", "a"])', ['B', 'a', 'b']],
    ['sprig.deepEqual([1, "a"], [1, "a"])', true],
    ['sprig.typeIsLike("string", "x")', true],
    // cast v1.10 keeps the integer part of a decimal string
    ['sprig.min("3.5", 100)', 3],
    ['sprig.add1("-.5")', 1],
  ])('%s → %j', (source, expected) => {
    expect(meta(source)).toEqual(expected);
  });

  it('fails like sprig on a value that is not a list', () => {
    expect(runtimeError('sprig.first("abc")', META_ENV).reason).toBe('Cannot find first on type string');
    expect(runtimeError('sprig.rest(nil)', META_ENV).reason).toBe(
      'runtime error: invalid memory address or nil pointer dereference',
    );
  });
});

describe('jsonpath recursive descent (evilmonkeyinc/jsonpath v0.8.1)', () => {
  const doc = '`{"b":[{"name":"n2"},{"name":"n3","n":2}],"a":{"name":"n1"},"list":[1,2,3]}`';
  const meta = (source: string): unknown => evaluate(source, META_ENV);

  it.each<[string, unknown]>([
    // every node, itself first, then a map's children in key order
    [`jsonpath(${doc}, "$..name")`, ['n1', 'n2', 'n3']],
    [`jsonpath(${doc}, "$..n")`, [2]],
    [`jsonpath(${doc}, "$..list[1]")`, [2]],
    [`jsonpath(${doc}, "$..[0]")`, [{ name: 'n2' }, 1]],
    [`jsonpath(${doc}, "$..nothing")`, []],
    ['jsonpath(`{"a":{"name":[1,2]}}`, "$..name")', [1, 2]], // a list found adds its elements
    ['jsonpath(`[1,[2]]`, "$..")', [[1, [2]], 1, [2], 2]],
  ])('%s → %j', (source, expected) => {
    expect(meta(source)).toEqual(expected);
  });

  it('decodes a number out of float64 range as Go does: an error', () => {
    expect(runtimeError('jsonpath("[1e400]", "$..")', META_ENV).reason).toBe(
      'json: cannot unmarshal number 1e400 into Go value of type float64',
    );
  });
});
