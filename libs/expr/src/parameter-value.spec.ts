import { describe, expect, it } from '@jest/globals';

import { execute, compile, toParameterValue } from './index.js';
import { BODY, ENV } from './spec-helpers.js';

describe('toParameterValue is Argo json.Marshal + Item.String + Fix', () => {
  it.each<[unknown, string]>([
    ['bar', 'bar'],
    ['My%Test%', 'My%Test%'],
    ['a"b\n', 'a\\"b\\n'],
    ['tab\there', 'tab\\there'],
    ['back\\slash', 'back\\\\slash'],
    ['\u0001', '\\u0001'],
    ['\b\f', '\\b\\f'],
    ['\u2028\u2029', '\\u2028\\u2029'],
    ['\ud800', '\ufffd'],
    ['<a&b>', '<a&b>'],
    ['\u007f', '\u007f'],
    ['é', 'é'],
    ['a\\u003cb', 'a\\<b'],
    [8675309, '8675309'],
    [1.5, '1.5'],
    [1e21, '1e+21'],
    [1e-7, '1e-7'],
    [0.000001, '0.000001'],
    [-0, '-0'],
    [3n, '3'],
    [9007199254740993n, '9007199254740993'],
    [true, 'true'],
    [false, 'false'],
    [null, 'null'],
    [undefined, 'null'],
    [{ bar: 'baz' }, '{"bar":"baz"}'],
    [['one', 'two'], '["one","two"]'],
    [{ z: 1, a: 2 }, '{"a":2,"z":1}'],
    [{ k: '<x>', n: [1, null] }, '{"k":"<x>","n":[1,null]}'],
    [{ é: 1, z: 2, Z: 3 }, '{"Z":3,"z":2,"é":1}'],
    [[], '[]'],
    [{}, '{}'],
  ])('%p → %s', (input, expected) => {
    expect(toParameterValue(input)).toBe(expected);
  });

  it('converts the results of the conformance parameters', () => {
    const params: [string, string][] = [
      ['payload.s', 'x'],
      ['payload.n', '1'],
      ['payload.foo.numeric', '8675309'],
      ['payload.f', '1.5'],
      ['payload.b', 'true'],
      ['payload.l', '["one","two"]'],
      ['payload.m', '{"a":2,"z":1}'],
      ['payload.nothing', 'null'],
      ['payload.q', 'a\\"b'],
      ['payload.foo', '{"bar":"baz","bool":true,"numeric":8675309,"pr":112}'],
      ['payload.formatted', 'My%Test%'],
      ['1+2', '3'],
      ['"bar"', 'bar'],
    ];
    for (const [source, expected] of params) {
      expect([source, toParameterValue(execute(compile(source, ENV), ENV))]).toEqual([source, expected]);
    }
    expect(BODY.q).toBe('a"b');
  });

  it('fails like json.Marshal on values JSON cannot hold', () => {
    expect(() => toParameterValue(NaN)).toThrow('json: unsupported value: NaN');
    expect(() => toParameterValue(execute(compile('groupBy([1], #)', ENV), ENV))).toThrow(
      'json: unsupported type: map[interface {}][]interface {}',
    );
  });
});
