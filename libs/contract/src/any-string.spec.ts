import { toAnyString } from './any-string.js';

describe('AnyString', () => {
  it.each([
    ['x', 'x'],
    [1.5, '1.5'],
    [3, '3'],
    [true, 'true'],
    [false, 'false'],
    [{ a: 1 }, ''],
    [[1], ''],
    [null, undefined],
    [undefined, undefined],
  ])('%j → %j', (input, out) => {
    expect(toAnyString(input)).toBe(out);
  });
});
