import fc from 'fast-check';
import { JsonCostMeter } from './json-cost-meter.js';

const UNBOUNDED = { maxValues: Number.MAX_SAFE_INTEGER, maxDepth: Number.MAX_SAFE_INTEGER };

/** Values and keys JSON.parse builds from `text`, and its deepest nesting, walked from the parsed value. */
function built(text: string): { values: number; deepest: number } {
  let values = 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[JSON.parse(text), 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    values++;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    const entries = Array.isArray(v) ? v.map((x) => ['', x] as const) : Object.entries(v);
    if (!Array.isArray(v)) values += entries.length;
    for (const [, child] of entries) stack.push([child, depth + 1]);
  }
  return { values, deepest };
}

function meter(pieces: Array<Uint8Array | string>, limits = UNBOUNDED) {
  const m = new JsonCostMeter(limits);
  let excess: string | undefined;
  for (const p of pieces) excess ??= m.feed(p);
  return { values: m.values, deepest: m.deepest, excess };
}

describe('JsonCostMeter', () => {
  it('counts exactly what JSON.parse builds, fed whole, as bytes cut anywhere, or as text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())),
        fc.nat(),
        fc.boolean(),
        (value, cutSeed, spaced) => {
          const text = JSON.stringify(value, null, spaced ? 2 : undefined);
          const bytes = Buffer.from(text);
          const cut = bytes.length === 0 ? 0 : cutSeed % bytes.length;
          const expected = built(text);
          for (const pieces of [[bytes], [bytes.subarray(0, cut), bytes.subarray(cut)], [text]]) {
            const seen = meter(pieces);
            expect({ values: seen.values, deepest: seen.deepest }).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is not fooled by brackets, quotes and backslashes inside strings, even cut between a backslash and its quote', () => {
    const text = JSON.stringify({ a: '{[\\"]}', 'k"}': ['\\', '"{', '\u00e9\u20ac'] });
    const bytes = Buffer.from(text);
    for (let cut = 0; cut <= bytes.length; cut++)
      expect(meter([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual({
        ...built(text),
        excess: undefined,
      });
  });

  it('stops at the first value past maxValues and the first level past maxDepth', () => {
    const wide = `[${'{},'.repeat(1000)}{}]`;
    expect(meter([wide], { maxValues: 100, maxDepth: 64 })).toMatchObject({ values: 101, excess: 'values' });
    const deep = `${'['.repeat(1000)}${']'.repeat(1000)}`;
    expect(meter([deep], { maxValues: 10_000, maxDepth: 64 })).toMatchObject({
      deepest: 65,
      excess: 'depth',
    });
    // 6 values and keys, 3 levels: exactly at the bounds is within them.
    expect(meter(['{"a":{"b":[1]}}'], { maxValues: 6, maxDepth: 3 })).toMatchObject({ excess: undefined });
    expect(meter(['{"a":{"b":[1]}}'], { maxValues: 5, maxDepth: 3 })).toMatchObject({ excess: 'values' });
    expect(meter(['{"a":{"b":[1]}}'], { maxValues: 6, maxDepth: 2 })).toMatchObject({ excess: 'depth' });
  });

  it('once past a bound, keeps saying so', () => {
    const m = new JsonCostMeter({ maxValues: 2, maxDepth: 64 });
    expect(m.feed('[1,2,')).toBe('values');
    expect(m.feed('3]')).toBe('values');
  });

  it('counts nothing when the text does not start with an object or an array (at most one scalar is built)', () => {
    for (const text of ['  "a,b,c,[[[["', '12345', '<html>[[[[[[', 'true'])
      expect(meter([text], { maxValues: 1, maxDepth: 1 })).toMatchObject({ values: 0, excess: undefined });
  });

  it('reads ordinary JSON faster than JSON.parse builds it (best of 5 each: a busy moment does not decide)', () => {
    const text = JSON.stringify(
      Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'], ok: true })),
    );
    const bytes = Buffer.from(text);
    const best = (fn: () => void): number =>
      Math.min(
        ...Array.from({ length: 5 }, () => {
          const t0 = performance.now();
          fn();
          return performance.now() - t0;
        }),
      );
    const metered = best(() => {
      const m = new JsonCostMeter(UNBOUNDED);
      for (let i = 0; i < bytes.length; i += 64 * 1024) m.feed(bytes.subarray(i, i + 64 * 1024));
    });
    const parsed = best(() => JSON.parse(text));
    expect(metered).toBeLessThan(parsed);
  });
});
