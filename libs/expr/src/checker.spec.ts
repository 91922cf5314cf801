import { describe, expect, it } from '@jest/globals';

import { compile, eventEnv, ExprCompileError } from './index.js';
import { compileError, ENV, goValue, runtimeError } from './spec-helpers.js';

describe('the top level is strict, nested maps are not', () => {
  it.each<[string, string]>([
    ['event.payload.message == "x"', 'unknown name event'],
    ['sprig.toString(1) == "1"', 'unknown name sprig'],
    ['toJson(payload) != ""', 'unknown name toJson'],
    ['jsonpath("{}", "$") == nil', 'unknown name jsonpath'],
    ['asInt("1") == 1', 'unknown name asInt'],
    ['asFloat("1") == 1', 'unknown name asFloat'],
    ['payloads.x', 'unknown name payloads'],
    ['foo(1)', 'unknown name foo'],
    ['constructor(1)', 'unknown name constructor'],
    ['toString(payload)', 'unknown name toString'],
    ['hasOwnProperty("x")', 'unknown name hasOwnProperty'],
    ['$env.nothing', 'unknown name nothing'],
  ])('%s → %s', (source, reason) => {
    const error = compileError(source);
    expect(error.reason).toBe(reason);
    expect(error).toBeInstanceOf(ExprCompileError);
  });

  it('lets a builtin named as a value through: it is nil at run time (expr v1.17.8)', () => {
    expect(goValue('reduce')).toBeNull();
    expect(goValue('median == nil')).toBe(true);
  });

  it('reports unknown names at their location', () => {
    expect(compileError('event.payload.message == "x"').message).toBe(
      'unknown name event (1:1)\n | event.payload.message == "x"\n | ^',
    );
    expect(compileError('payload.n == 1 && evnt == 2').column).toBe(19);
  });

  it('lets a missing nested key be nil', () => {
    expect(goValue('payload.does ?? "ok"')).toBe('ok');
    expect(goValue('$env?.nothing')).toBe(null);
  });
});

describe('a nil-valued root fails to compile', () => {
  const noBody = eventEnv(undefined, {}, '', 'argo');

  it.each<[string, string]>([
    ['payload.x == 1', 'type nil has no field x'],
    ['payload != nil && payload.x == 1', 'type nil has no field x'],
    ['payload?.x == 1', 'type nil has no field x'],
    ['payload["x"]', 'type nil has no field x'],
    ['payload[0]', 'type unknown[int] is undefined'],
  ])('%s → %s', (source, reason) => {
    expect(compileError(source, noBody).reason).toBe(reason);
  });

  it('still allows comparing the nil root', () => {
    expect(goValue('payload == nil', noBody)).toBe(true);
    expect(goValue('payload ?? "empty"', noBody)).toBe('empty');
  });

  it('types other roots by their value', () => {
    const list = eventEnv([1, 2], {}, '', 'argo');
    expect(goValue('payload[1] == 2', list)).toBe(true);
    expect(compileError('payload.x', list).reason).toBe(
      'array elements can only be selected using an integer (got string)',
    );
    const text = eventEnv('hi', {}, '', 'argo');
    expect(goValue('payload == "hi"', text)).toBe(true);
    expect(compileError('payload.x', text).reason).toBe('type string has no field x');
    expect(compileError('payload == 1', text).reason).toBe(
      'invalid operation: == (mismatched types string and int)',
    );
  });
});

describe('type errors between known types are compile errors', () => {
  it.each<[string, string]>([
    ['discriminator == 1', 'invalid operation: == (mismatched types string and int)'],
    ['namespace != true', 'invalid operation: != (mismatched types string and bool)'],
    ['discriminator + 1', 'invalid operation: + (mismatched types string and int)'],
    ['"x" + 1', 'invalid operation: + (mismatched types string and int)'],
    ['"1" == 1', 'invalid operation: == (mismatched types string and int)'],
    ['7.0 % 2', 'invalid operation: % (mismatched types float64 and int)'],
    ['1 && true', 'invalid operation: && (mismatched types int and bool)'],
    ['nil < 1', 'invalid operation: < (mismatched types unknown and int)'],
    ['"x" in nil', 'invalid operation: in (mismatched types string and unknown)'],
    [
      '{} == fromPairs([])',
      'invalid operation: == (mismatched types map[string]interface {} and map[interface {}]interface {})',
    ],
    ['1 contains "a"', 'invalid operation: contains (mismatched types int and string)'],
    ['"a" in "abc"', 'invalid operation: in (mismatched types string and string)'],
    ['"a" in [1, 2]', 'cannot use string as type int in array'],
    ['1 in {a: 1}', 'cannot use int as type string in map key'],
    ['1.5..3', 'invalid operation: .. (mismatched types float64 and int)'],
    ['!1', 'invalid operation: ! (mismatched type int)'],
    ['-"a"', 'invalid operation: - (mismatched type string)'],
    ['1 ? 2 : 3', 'non-bool expression (type int) used as condition'],
    ['"héllo"[1]', 'type string[int] is undefined'],
    ['{a: 1}[0]', 'cannot use int to get an element from map[string]interface {}'],
    ['[1][1.5]', 'array elements can only be selected using an integer (got float64)'],
    ['[1]["a"]', 'array elements can only be selected using an integer (got string)'],
    ['(1)[0:1]', 'cannot slice int'],
    ['1[0]', 'unexpected token Bracket("[")'],
    ['discriminator.x', 'type string has no field x'],
    ['"abc" matches "["', 'error parsing regexp: missing closing ]: `[`'],
    ['all({}, true)', 'builtin all takes only array (got map[string]interface {})'],
    ['filter([1], "yes")', 'predicate should return boolean (got string)'],
    ['map([1], #acc)', 'unknown pointer #acc'],
    ['map([1], #foo)', 'unknown pointer #foo'],
    ['filter([1, 2], #index > 0)', 'unknown pointer #index'],
    ['map([[1]], any(#, #index > 0))', 'unknown pointer #index'],
    ['let payload = 1; payload', 'cannot redeclare payload'],
    ['let len = 1; len', 'cannot redeclare builtin len'],
    ['let x = 1; let x = 2; x', 'cannot redeclare variable x'],
  ])('%s → %s', (source, reason) => {
    expect(compileError(source).reason).toBe(reason);
  });

  it('defers checks when a side is unknown (any JSON value)', () => {
    expect(() => compile('payload.s + 1', ENV)).not.toThrow();
    expect(() => compile('payload.n == "1"', ENV)).not.toThrow();
    expect(() => compile('upper(payload.n)', ENV)).not.toThrow();
  });
});

describe('regexp syntax Go rejects is a compile error', () => {
  it.each<[string, string]>([
    ['"ab" matches "a(?=b)"', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
  ])('%s → %s', (source, reason) => {
    expect(compileError(source).reason).toBe(reason);
  });
});

describe('checks expr makes and does not make', () => {
  it('does not check the arguments of a callee of unknown type', () => {
    expect(() => compile('payload.f(nope, 1 + "a")', ENV)).not.toThrow();
  });

  it('types a range as []interface {} of ints: join gets it past the checker and fails at run time', () => {
    expect(runtimeError('1..3 | join(",")').reason).toBe('invalid argument for join (type []int)');
    expect(goValue('map([], "x" + join(1..3, #))')).toEqual([]);
  });

  it('refuses to call $env', () => {
    expect(compileError('$env(1)').reason).toBe('map[string]interface {} is not callable');
  });
});

describe('constant folding errors', () => {
  it.each(['1 % 0', '-1 % 0', '[(255) % 0 - 1]'])(
    '%s is the compile error integer divide by zero',
    (source) => {
      expect(compileError(source).reason).toBe('integer divide by zero');
    },
  );
});

describe('natures as Go types: interface {} is unknown to operators but has a type (expr v1.17.8)', () => {
  it.each<[string, string]>([
    // a conditional is its first branch's type when that is assignable to the other's: a map into interface {}
    [
      'fromJSON("{}") >= (payload.n == 1 ? {a: 1} : fromJSON("{}"))',
      'invalid operation: >= (mismatched types interface {} and map[string]interface {})',
    ],
    ['int(payload.n == 1 ? {a: 1} : payload.m)', 'invalid argument for int (type map[string]interface {})'],
    ['"x" + (payload.b ? 1.5 : payload.s)', 'invalid operation: + (mismatched types string and float64)'],
    ['get(payload.b ? namespace : payload.s, 0)', 'type string does not support indexing'],
    // reduce has the type of its predicate
    [
      '2.5 != reduce(payload.ids, concat(#acc, [#]))',
      'invalid operation: != (mismatched types float64 and []interface {})',
    ],
    ['groupBy(reduce(1..5, #, 0), #)', 'builtin groupBy takes only array (got int)'],
    ['sort(reduce(1..5, #index, nil))', 'cannot use int as argument (type []int) to call sort '], // sic: trailing space,
    // a predicate whose body is nil has no output
    ['filter(payload.l, nil)', 'predicate should has one input and one output param'],
    ['reduce(payload.l, nil)', 'predicate should has two input and one output param'],
    // nil is not a string key
    ['nil in {b: 2}', 'cannot use unknown as type string in map key'],
    // a value without a type (a field of an interface {}) stays unknown in a conditional
    [
      'payload.foo.bar + (payload.b ? true : payload.s)',
      'invalid operation: + (mismatched types unknown and bool)',
    ],
  ])('%s → %s', (source, reason) => {
    expect(compileError(source).reason).toBe(reason);
  });

  it('loses the element nature through a builtin, as a Go signature does', () => {
    // take() returns the Go type []interface {}: its elements are interface {}, so .n is checked at run time
    expect(runtimeError('reduce(take(3..10, 2), #acc + .n, 0)').reason).toBe('cannot fetch n from int');
  });

  it('keeps conditionals and ?? of values read from the payload open', () => {
    expect(goValue('(payload.b ? payload.n : payload.s) == 1')).toBe(true);
    expect(goValue('(payload.none ?? 2) + 1')).toBe(3n);
  });
});
