import { textOfCut } from './utf8-cut.js';

describe('textOfCut', () => {
  it('leaves out a character the cut split, at every byte of 2-, 3- and 4-byte characters', () => {
    const text = 'aé☃😀b';
    const bytes = Buffer.from(text);
    const whole = [...text].map((_, i, chars) => chars.slice(0, i + 1).join(''));
    for (let cut = 0; cut <= bytes.length; cut++) {
      const expected = ['', ...whole].filter((t) => Buffer.byteLength(t) <= cut).at(-1);
      expect([cut, textOfCut(bytes.subarray(0, cut))]).toEqual([cut, expected]);
    }
  });

  it('decodes broken UTF-8 before the end as it is', () => {
    expect(textOfCut(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\uFFFDb');
  });
});
