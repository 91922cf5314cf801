import { bodyBudgetFor } from './body-budget.js';

describe('BodyBudget', () => {
  // Per-body limits of 1,000 bytes and 100 values: 4 full bodies in flight, light up to 62 bytes and 6 values.
  const budget = () => bodyBudgetFor({ maxBytes: 1000, maxValues: 100 });

  it('lets heavy bodies take up to four full bodies together, then refuses the next heavy one', () => {
    const b = budget();
    const shares = Array.from({ length: 4 }, () => b.open());
    for (const s of shares) expect(s.grow(1000, 100)).toBe(true);
    const fifth = b.open();
    expect(fifth.grow(100, 0)).toBe(false);
    expect(fifth.grow(0, 10)).toBe(false);
    expect(b.taken).toEqual({ bytes: 4000, values: 400 });
  });

  it('never refuses a light body, even when heavy ones hold everything', () => {
    const b = budget();
    for (let i = 0; i < 4; i++) b.open().grow(1000, 100);
    const light = b.open();
    expect(light.grow(60, 5)).toBe(true);
    expect(light.grow(10, 0)).toBe(false); // past 62 bytes it is heavy, and there is no room
  });

  it('gives a share back once, on release', () => {
    const b = budget();
    const held = Array.from({ length: 4 }, () => b.open());
    held.forEach((s) => s.grow(1000, 100));
    held[0].release();
    held[0].release();
    expect(b.taken).toEqual({ bytes: 3000, values: 300 });
    expect(b.open().grow(1000, 100)).toBe(true);
    expect(held[0].grow(1, 0)).toBe(false);
  });
});
