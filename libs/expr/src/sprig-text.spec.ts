import { describe, expect, it } from '@jest/globals';

import { marshal } from './go-json.js';
import { goTypeOf } from './index.js';
import { goValue, META_ENV, runtimeError } from './spec-helpers.js';

const json = (source: string): string => marshal(goValue(source, META_ENV));

// Expected values from sprig v3.3.0 under expr v1.17.8 (the reference results) and Go's standard library.
describe('sprig text, encoding and number helpers', () => {
  it.each<[string, string]>([
    ['sprig.split(",", "a,b")', '{"_0":"a","_1":"b"}'],
    ['sprig.splitn("", -3, "main")', '{"_0":"m","_1":"a","_2":"i","_3":"n"}'],
    ['sprig.splitn("/", 0, "a/b")', '{}'],
    ['sprig.plural("one", "many", 1)', '"one"'],
    ['sprig.plural("one", "many", -1)', '"many"'],
    ['sprig.b32enc("aGVsbG8=")', '"MFDVM43CI44D2==="'],
    ['sprig.b32dec("MFDVM43CI44D2===")', '"aGVsbG8="'],
    ['sprig.b32dec("1")', '"illegal base32 data at input byte 0"'],
    ['sprig.b32dec("MFRA")', '"illegal base32 data at input byte 0"'],
    ['sprig.b32dec("MF1AAAAA")', '"illegal base32 data at input byte 2"'],
    ['sprig.b32dec("MFRGG===")', '"abc"'],
    ['sprig.adler32sum("{\\"a\\":1}")', '"136970761"'],
    ['sprig.adler32sum("")', '"1"'],
    ['sprig.isAbs("/a")', 'true'],
    ['sprig.isAbs("https://x.io/a?b=1")', 'false'],
    ['sprig.seq(0, 3)', '"0 1 2 3"'],
    ['sprig.seq(-3, nil)', '"-3 -2 -1 0"'],
    ['sprig.seq(3)', '"1 2 3"'],
    ['sprig.seq(0, 2, 5)', '"0 2 4"'],
    ['sprig.seq(5, 2, 0)', '""'],
    ['sprig.round(1.2345, 2)', '1.23'],
    ['sprig.round(true, 100)', '1'],
    ['sprig.round("3.5", 0, 0.6)', '3'],
    ['sprig.divf(nil)', '0'],
    // cast.ToFloat64 parses with strconv.ParseFloat
    ['sprig.float64("1_000")', '1000'],
    ['sprig.float64("0x1p-2")', '0.25'],
    ['sprig.float64("x")', '0'],
    ['sprig.minf(1, -0.0, "x")', '-0'],
    ['sprig.maxf(1, 2.5, "3")', '3'],
    ['sprig.divf(1, 3)', '0.3333333333333333'],
    ['sprig.divf(2, 3)', '0.6666666666666667'],
  ])('%s gives %s', (source, expected) => {
    expect(json(source)).toBe(expected);
  });

  it('returns the Go types sprig declares', () => {
    expect(goTypeOf(goValue('sprig.split(",", "a")', META_ENV))).toBe('map[string]string');
    expect(goTypeOf(goValue('sprig.round(1, 1)', META_ENV))).toBe('float64');
  });
});

describe('sprig regexSplit', () => {
  it('compiles the pattern before looking at the text or the count', () => {
    expect(runtimeError('sprig.regexSplit("(a)\\\\1", "", -1)', META_ENV).reason).toContain(
      'invalid escape sequence',
    );
    expect(runtimeError('sprig.regexSplit("(?#c)a", "abc", 0)', META_ENV).reason).toContain(
      'invalid or unsupported Perl syntax',
    );
  });
});
