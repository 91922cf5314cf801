import { describe, expect, it } from '@jest/globals';

import { goValue, runtimeError } from './spec-helpers.js';
import { GoInt } from './values.js';

describe('the memory budget is one count per run, as expr’s VM keeps it', () => {
  it('fails once the run has allocated a million elements, not only one list larger than that', () => {
    expect(runtimeError('1..1000000').reason).toBe('memory budget exceeded');
    expect(runtimeError('len(1..600000) + len(1..600000)').reason).toBe('memory budget exceeded');
    expect(runtimeError('reduce(1..2000, concat(#acc, [#]), [])').reason).toBe('memory budget exceeded');
    expect(goValue('len(1..999998)')).toBe(999998n);
  });

  it('counts list and map literals, map(), filter() and the allocating builtins', () => {
    expect(runtimeError('len(map(1..500000, #)) + len(1..1)').reason).toBe('memory budget exceeded');
    expect(runtimeError('len(repeat("ab", 500000))').reason).toBe('memory budget exceeded');
  });

  it('does not count what the optimizer folds away', () => {
    expect(goValue('sum(1..1000000)')).toBe(500000500000n);
    expect(goValue('sum(1..1000000, # * 2)')).toBe(1000001000000n);
    expect(goValue('reduce(1..1000000, # + #acc, 1)')).toBe(500000500001n);
    expect(goValue('len(filter(1..999999, # > 1))')).toBe(999998n); // count(): no second list
  });
});

describe('bytes and sprig int64 are numbers to the runtime', () => {
  const byte = (n: number): GoInt => new GoInt('uint8', BigInt(n));

  it('negates them keeping their Go type: a byte wraps around', () => {
    expect(goValue('- -payload.s[0]')).toEqual(byte(120)); // "x"
    expect(goValue('-payload.s[0]')).toEqual(byte(136));
  });

  it('lets max, min, mean and median take them', () => {
    expect(goValue('reduce(payload.q, max(#acc, #), 0)')).toEqual(byte(98)); // 'a"b'
    expect(goValue('min(map(payload.q, #))')).toEqual(byte(34));
    expect(goValue('mean(map(payload.q, #))')).toBe(229 / 3);
    expect(goValue('median(map(payload.q, #))')).toBe(97);
  });
});
