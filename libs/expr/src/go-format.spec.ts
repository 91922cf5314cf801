import { describe, expect, it } from '@jest/globals';

import { goFormat } from './index.js';
import { tagged } from './values.js';

describe('goFormat is Go fmt %v', () => {
  it.each<[unknown, string]>([
    [112, '112'],
    [123456, '123456'],
    [1234567, '1.234567e+06'],
    [1234567.5, '1.2345675e+06'],
    [8675309, '8.675309e+06'],
    [0.00001, '1e-05'],
    [0.0001, '0.0001'],
    [1.5, '1.5'],
    [-2.25, '-2.25'],
    [100000000, '1e+08'],
    [1e21, '1e+21'],
    [1.5e300, '1.5e+300'],
    [0, '0'],
    [-0, '-0'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [1234567n, '1234567'],
    [-5n, '-5'],
    [null, '<nil>'],
    [undefined, '<nil>'],
    [true, 'true'],
    ['text', 'text'],
    [['a', 'b'], '[a b]'],
    [[1, null, 'x'], '[1 <nil> x]'],
    [[], '[]'],
    [{ b: [1], a: 'x' }, 'map[a:x b:[1]]'],
    [{ n: { m: 2.5 } }, 'map[n:map[m:2.5]]'],
    [{}, 'map[]'],
  ])('%p → %s', (input, expected) => {
    expect(goFormat(input)).toBe(expected);
  });

  it('sorts interface keys by kind then value', () => {
    const grouped = tagged(
      new Map<boolean | bigint, null>([
        [2n, null],
        [true, null],
        [1n, null],
      ]),
      'map[interface {}][]interface {}',
    );
    expect(goFormat(grouped)).toBe('map[true:<nil> 1:<nil> 2:<nil>]');
  });
});
