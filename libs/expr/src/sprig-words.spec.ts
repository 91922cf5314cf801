import { describe, expect, it } from '@jest/globals';

import { goValue, META_ENV } from './spec-helpers.js';

// Expected values from sprig v3.3.0 + goutils v1.1.1 under expr v1.17.8 (the reference results).
describe('sprig word functions (goutils)', () => {
  it.each<[string, string]>([
    ['sprig.untitle("Hello World")', 'hello world'],
    ['sprig.untitle("HTTPServer")', 'hTTPServer'],
    ['sprig.untitle(nil)', ''],
    ['sprig.initials("a-b_c d")', 'ad'],
    // bytes read as runes: the lead byte 0xC7 of ǅ is Ç
    ['sprig.initials("ǅ straße")', '\u00c7s'],
    ['sprig.initials("日本語")', '\u00e6'],
    ['sprig.abbrev(5, "a-b_c d")', 'a-...'],
    ['sprig.abbrev(-3, "main")', 'main'],
    ['sprig.abbrev(100, "")', ''],
    ['sprig.abbrevboth(1, 5, "Hello World")', 'Hello World'],
    ['sprig.abbrevboth(5, 10, "Now is the time for all good men")', '...s th...'],
    ['sprig.abbrevboth(1, 3, "YQ==")', 'YQ=='],
    ['sprig.wrap(0, "3.5")', '3.5'],
    ['sprig.wrap(5, "Hello big World")', 'Hello\nbig\nWorld'],
    ['sprig.wrapWith(3, "", "a,b,c")', 'a,b\n,c'],
    ['sprig.wrapWith(0, "", "ab")', 'a\nb'],
    ['sprig.wrapWith(1, "a,b,c", "")', ''],
    // title-case ǅ becomes lower case; a lower-case letter after a space becomes title case
    ['sprig.swapcase("ǅ straße")', '\u01c6 STRA\u00dfE'],
    ['sprig.swapcase("ǆ")', '\u01c5'],
  ])('%s is %j', (source, expected) => {
    expect(goValue(source, META_ENV)).toBe(expected);
  });
});
