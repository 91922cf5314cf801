import { sprintS } from './go-sprintf.js';

describe('Go %s of expression results', () => {
  it.each([
    ['garbage', 'garbage'],
    [null, '%!s(<nil>)'],
    [1.5, '%!s(float64=1.5)'],
    [3n, '%!s(int=3)'],
    [['a', 1], '[a %!s(float64=1)]'],
    [
      new Map<string, unknown>([
        ['b', 'x'],
        ['a', true],
      ]),
      'map[a:%!s(bool=true) b:x]',
    ],
  ])('%p → %s', (value, text) => expect(sprintS(value as never)).toBe(text));
});
