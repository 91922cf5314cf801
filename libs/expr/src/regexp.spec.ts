import { describe, expect, it } from '@jest/globals';

import { compileError, goValue } from './spec-helpers.js';

const matches = (text: string, pattern: string): unknown =>
  goValue(`${JSON.stringify(text)} matches ${JSON.stringify(pattern)}`);

describe('matches uses Go RE2 semantics, unanchored', () => {
  it.each<[string, string, boolean]>([
    ['abc', 'b', true],
    ['abc', '^b', false],
    ['abc', '^a.c$', true],
    ['ABC', '(?i)abc', true],
    ['ABC', 'abc', false],
    ['a\nb', 'a.b', false],
    ['a\nb', '(?s)a.b', true],
    ['line1\nline2', '^line2$', false],
    ['line1\nline2', '(?m)^line2$', true],
    ['line1\r\nline2', '(?m)line1$', false],
    ['x1', '\\d', true],
    ['٣', '\\d', false],
    ['a\u00a0b', 'a\\sb', false],
    ['a b', 'a\\sb', true],
    ['é', '\\w', false],
    ['é', '^.$', true],
    ['😀', '^.$', true],
    ['é', '\\pL', true],
    ['α', '\\p{Greek}', true],
    ['a', '\\PL', false],
    ['abc', '^[[:alpha:]]+$', true],
    ['ab1', '^[[:^digit:]]+$', false],
    ['a-b', '[\\w-]+', true],
    ['aaa', '^a{2,3}$', true],
    ['a{,2}', 'a{,2}', true],
    ['a}', 'a}', true],
    ['x]', 'x]', true],
    ['a.b', 'a\\.b', true],
    ['a+b', '\\Qa+b\\E', true],
    ['\\', '\\\\', true],
    ['A', '\\x41', true],
    ['A', '\\x{41}', true],
    ['A', '\\101', true],
    ['ab', '(?P<first>a)(?<second>b)', true],
    ['ab', '(?:a|x)b', true],
    ['aa', '(?U)a+', true],
    ['Ab', '(?i)[a-z]B', true],
    ['abc', '\\Aabc\\z', true],
    ['a b', '\\bb\\b', true],
    ['xyz', 'x|(?s:y.)', true],
    ['', '^$', true],
    ['-', '[a\\-z]', true],
    ['b', '[^a]', true],
    ['^', '[\\^]', true],
    ['xY', 'x(?i)y', true],
    ['XY', 'x(?i)y', false],
    ['aB', 'a(?i:b)', true],
  ])('%j matches %j → %s', (text, pattern, expected) => {
    expect(matches(text, pattern)).toBe(expected);
  });

  it.each<[string, string]>([
    ['[', 'error parsing regexp: missing closing ]: `[`'],
    ['(', 'error parsing regexp: missing closing ): `(`'],
    [')', 'error parsing regexp: unexpected ): `)`'],
    ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['*a', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['\\e', 'error parsing regexp: invalid escape sequence: `\\e`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['(?=x)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(?<!x)', 'error parsing regexp: invalid named capture: `(?<!x)`'],
    ['\\p{Nope}', 'error parsing regexp: invalid character class range: `\\p{Nope}`'],
    ['\\Z', 'error parsing regexp: invalid escape sequence: `\\Z`'],
    ['\\C', 'error parsing regexp: invalid escape sequence: `\\C`'],
    ['(?<name>x)(?<name>y)', 'error parsing regexp: duplicate capture group name: `name`'],
  ])('a constant %j is a compile error', (pattern, reason) => {
    expect(compileError(`"x" matches ${JSON.stringify(pattern)}`).reason).toBe(reason);
  });
});

describe('matches runs in linear time (RE2), not by backtracking', () => {
  it('takes well under a second for ^(a+)+$ on 32 a and a b', () => {
    const started = performance.now();
    expect(matches(`${'a'.repeat(32)}b`, '^(a+)+$')).toBe(false);
    expect(matches('a'.repeat(32), '^(a+)+$')).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('stays linear on a payload value of 100,000 characters', () => {
    const env = { payload: { s: `${'a'.repeat(100_000)}!` } };
    const started = performance.now();
    expect(goValue('payload.s matches "^(a|aa)*(a|aa)*$"', env)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('a pattern that becomes constant by folding is compiled with the expression', () => {
  it('fails the compilation when it does not parse', () => {
    expect(compileError('"x" matches ("[" + "(")').reason).toBe(
      'error parsing regexp: missing closing ]: `[(`',
    );
  });
});
