import { canonicalJson, nestingDepth } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every level and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives the same text whatever the key order', () => {
    expect(canonicalJson({ x: 1, y: { a: 1, b: 2 } })).toBe(canonicalJson({ y: { b: 2, a: 1 }, x: 1 }));
  });

  it('matches JSON.stringify for scalars and arrays', () => {
    for (const v of [null, true, 1.5, 'a"b', [1, 'x', null], []])
      expect(canonicalJson(v)).toBe(JSON.stringify(v));
  });

  it('survives hostile nesting without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow('nesting deeper than 256 levels');
    expect(nestingDepth(deep, 40)).toBe(41);
  });
});
