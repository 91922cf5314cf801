import { describe, expect, it } from '@jest/globals';

import { goFormat } from './index.js';
import { compileError, goValue } from './spec-helpers.js';

describe('literals', () => {
  it.each<[string, unknown]>([
    ['nil', null],
    ['true', true],
    ['false', false],
    ['42', 42n],
    ['0x2A', 42n],
    ['0X2a', 42n],
    ['0o52', 42n],
    ['0b101', 5n],
    ['1_000', 1000n],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['2.5e-3', 0.0025],
    ['"double"', 'double'],
    ["'single'", 'single'],
    ['"a\\tb\\nc"', 'a\tb\nc'],
    ["'it\\'s'", "it's"],
    ['"say \\"hi\\""', 'say "hi"'],
    ['"\\u00e9\\U0001F600"', 'é😀'],
    ['"\\x41\\101"', 'AA'],
    ['"\\xc3\\xa9"', 'Ã©'],
    ['"\\xff"', 'ÿ'],
    ['"\\uD800"', '\ufffd'],
    ['"\\u{41}"', 'A'],
    ['"\\a\\b\\f\\v\\\\"', '\x07\b\f\v\\'],
    ['`raw\\n "text"`', 'raw\\n "text"'],
    ['`multi\nline`', 'multi\nline'],
  ])('%s', (source, expected) => {
    expect(goValue(source)).toEqual(expected);
  });

  it('keeps ints and floats apart', () => {
    expect(goValue('1')).toBe(1n);
    expect(goValue('1.0')).toBe(1);
    expect(goFormat(goValue('[1, "a", nil, 2.5, {k: true}]'))).toBe('[1 a <nil> 2.5 map[k:true]]');
  });

  it.each<[string, string]>([
    ['{a: 1, "b c": 2, 3: 4}', 'map[3:4 a:1 b c:2]'],
    ['{(1 == 1 ? "x" : "y"): 1}', 'map[x:1]'],
    ['[1, 2, 3,]', '[1 2 3]'],
    ['{a: 1,}', 'map[a:1]'],
    ['[]', '[]'],
    ['{}', 'map[]'],
  ])('composite literal %s', (source, expected) => {
    expect(goFormat(goValue(source))).toBe(expected);
  });
});

describe('precedence and associativity', () => {
  it.each<[string, unknown]>([
    ['1 + 2 * 3', 7n],
    ['(1 + 2) * 3', 9n],
    ['10 - 4 - 3', 3n],
    ['2 ** 3 ** 2', 512],
    ['2 ^ 3', 8],
    ['-2 ** 2', -4],
    ['-(-3)', 3n],
    ['!true == false', true],
    ['not false and true', true],
    ['true || false && false', true],
    ['true or false and false', true],
    ['1 < 2 == true', true],
    ['1..1 + 2', [1n, 2n, 3n]],
    ['1 + 1 in [2]', true],
    ['true ? 1 : 2', 1n],
    ['false ? 1 : true ? 2 : 3', 2n],
    ['1 + nil ?? 1', 2n],
    ['3 == nil ?? 3', true],
    ['(nil ?? 3) == 3', true],
    ['nil ?? nil ?? "z"', 'z'],
    ['1 < 2 < 3', true],
    ['3 > 2 > 1', true],
    ['1 < 3 < 2', false],
    ['1 < 2 > 0', true],
    ['[1, 2, 3] | filter(# > 1) | map(# * 10)', [20n, 30n]],
    ['"a,b" | split(",")', ['a', 'b']],
    ['if 1 > 2 { "a" } else if 2 > 1 { "b" } else { "c" }', 'b'],
    ['let x = 2; x * 3', 6n],
    ['let x = 1; let y = 2; x + y', 3n],
    ['1; 2; 3', 3n],
    ['1; 2;', 2n],
    ['(let x = 5; x) + 1', 6n],
    ['true ?: false', true],
  ])('%s', (source, expected) => {
    expect(goValue(source)).toEqual(expected);
  });
});

describe('comments and layout', () => {
  it.each<[string, unknown]>([
    ['1 + /* two */ 2 // three', 3n],
    ['// leading comment\ntrue', true],
    ['true\n  && false // no\n  || true', true],
    ['/* multi\n line */ "x"', 'x'],
    ['\t1\r\n+\n2\n', 3n],
  ])('%j', (source, expected) => {
    expect(goValue(source)).toEqual(expected);
  });
});

describe('syntax errors are compile errors with a location', () => {
  it.each<[string, string, number, number]>([
    ['', 'unexpected token EOF', 1, 1],
    ['garbage!!!!!!', 'unexpected token Operator("!")', 1, 8],
    ['rubbish!!!', 'unexpected token Operator("!")', 1, 8],
    ['1 +', 'unexpected token EOF', 1, 3],
    ['(1', 'unexpected token EOF', 1, 2],
    ['[1, 2', 'unexpected token EOF', 1, 5],
    ['1 2', 'unexpected token Number("2")', 1, 3],
    ['{a 1}', 'unexpected token Number("1")', 1, 4],
    ['1 @ 2', "unrecognized character: U+0040 '@'", 1, 3],
    ['"abc', 'literal not terminated', 1, 5],
    ['"a\nb"', 'literal not terminated', 1, 3],
    ['/* open', 'unclosed comment', 1, 8],
    ['"\\q"', 'invalid char escape', 1, 3],
    ['1abc', 'bad number syntax: "1a"', 1, 2],
    [
      'a ?? b == c',
      'Operator (==) and coalesce expressions (??) cannot be mixed. Wrap either by parentheses.',
      1,
      8,
    ],
    [
      'payload ?? 1 + 2',
      'Operator (+) and coalesce expressions (??) cannot be mixed. Wrap either by parentheses.',
      1,
      14,
    ],
    ['# > 1', 'cannot use pointer accessor outside predicate', 1, 1],
    ['filter([1], # > 1; true)', 'wrap predicate with brackets { and }', 1, 18],
    ['all([1])', 'expected at least 2 arguments', 1, 8],
    [
      '9223372036854775808',
      'invalid integer literal: strconv.ParseInt: parsing "9223372036854775808": value out of range',
      1,
      19, // expr reports a bad literal at the token after it (here EOF, on the last character)
    ],
    ['x not y', 'unexpected token Identifier("y")', 1, 7],
    ['payload.', 'unexpected end of expression', 1, 8],
    ['true\n&& false !', 'unexpected token Operator("!")', 2, 10],
  ])('%j → %s', (source, reason, line, column) => {
    const error = compileError(source);
    expect(error.reason).toBe(reason);
    expect([error.line, error.column]).toEqual([line, column]);
  });

  it('turns runaway nesting into a compile error instead of a stack overflow', () => {
    expect(compileError(`${'('.repeat(20000)}1${')'.repeat(20000)}`).reason).toBe(
      'expression is too deeply nested',
    );
  });

  it('formats the message like expr, with a caret excerpt', () => {
    expect(compileError('garbage!!!!!!').message).toBe(
      'unexpected token Operator("!") (1:8)\n | garbage!!!!!!\n | .......^',
    );
    expect(compileError('').message).toBe('unexpected token EOF (1:1)\n | \n | ^');
  });
});
