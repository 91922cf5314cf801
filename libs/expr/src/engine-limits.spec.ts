// The limits of the real engine, with its texts: github.com/expr-lang/expr v1.17.8 with sprig v3.3.0 built
// with Go 1.26 (as Argo v4.1.2 is), each expression compiled and run as Argo's server does
// (`expr.Compile(e, expr.Env(env))`, `expr.Run`; sprig through the metadata function map). Every expected
// message below is what that engine printed for the same expression.
import { describe, expect, it } from '@jest/globals';

import { compileError, goValue, META_ENV, runtimeError } from './spec-helpers.js';

const list = (n: number): string => `[${Array(n).fill('1').join(', ')}]`;

describe('the node budget: expr compiles at most 10,000 nodes (conf.DefaultMaxNodes)', () => {
  it('accepts 10,000 nodes and refuses the next one where the parser is', () => {
    expect(goValue(`len(${list(9998)})`)).toBe(9998n); // 9,998 + the list + len
    const error = compileError(`[${Array(10000).fill('1').join(',')}]`);
    expect(error.message.split('\n')[0]).toBe(
      'compilation failed: expression exceeds maximum allowed nodes (1:20001)',
    );
  });

  it('counts every node expr creates: members, chains, map keys and pairs', () => {
    expect(compileError(`payload${'.a'.repeat(5000)}`).message.split('\n')[0]).toBe(
      'compilation failed: expression exceeds maximum allowed nodes (1:10007)',
    );
    expect(compileError(`payload${'?.a'.repeat(4999)}`).message.split('\n')[0]).toBe(
      'compilation failed: expression exceeds maximum allowed nodes (1:10010)',
    );
    const maps = (n: number) => `[${Array(n).fill('{a: 1}').join(', ')}]`;
    expect(goValue(`len(${maps(2499)})`)).toBe(2499n);
    expect(compileError(maps(2500)).message.split('\n')[0]).toBe(
      'compilation failed: expression exceeds maximum allowed nodes (1:20000)',
    );
  });
});

describe('the memory budget error is the engine’s, with its location', () => {
  it.each([
    ['1..1000000', 'memory budget exceeded (1:2)\n | 1..1000000\n | .^'],
    [
      'let x = 1..600000; let y = 1..600000; 1',
      'memory budget exceeded (1:29)\n | let x = 1..600000; let y = 1..600000; 1\n | ............................^',
    ],
    ['len(repeat("ab", 500000))', 'memory budget exceeded (1:5)\n | len(repeat("ab", 500000))\n | ....^'],
    [
      'flatten([1..600000, 1..600000])',
      'memory budget exceeded (1:22)\n | flatten([1..600000, 1..600000])\n | .....................^',
    ],
    ['repeat("ab", 500000000)', 'memory budget exceeded (1:1)\n | repeat("ab", 500000000)\n | ^'],
  ])('%s', (source, message) => {
    expect(runtimeError(source).message).toBe(message);
  });
});

describe('sprig builds strings with Go’s strings.Repeat and slices them with Go’s bounds checks', () => {
  const reason = (source: string) => runtimeError(source, META_ENV).message.split('\n')[0];

  it.each([
    ['sprig.repeat(-1, "ab")', 'strings: negative Repeat count (1:7)'],
    ['sprig.indent(-1, "x")', 'strings: negative Repeat count (1:7)'],
    ['sprig.nindent(-2, "x")', 'strings: negative Repeat count (1:7)'],
    ['len(sprig.repeat(3074457345618258603, "abc"))', 'strings: Repeat output length overflow (1:11)'],
    ['len(sprig.repeat(3074457345618258602, "abc"))', 'runtime error: makeslice: len out of range (1:11)'],
    ['len(sprig.indent(4611686018427387904, "x"))', 'runtime error: makeslice: len out of range (1:11)'],
    [
      'sprig.substr(-5, 1000000000, "abc")',
      'runtime error: slice bounds out of range [:1000000000] with length 3 (1:7)',
    ],
    ['sprig.substr(-5, -2, "abc")', 'runtime error: slice bounds out of range [:-2] (1:7)'],
  ])('%s', (source, message) => {
    expect(reason(source)).toBe(message);
  });

  it('repeats nothing for free, as Go does', () => {
    expect(goValue('len(sprig.repeat(9223372036854775807, ""))', META_ENV)).toBe(0n);
  });

  it('says so where the engine would build a string longer than JavaScript can hold', () => {
    // The engine returns the 1,000,000,000-byte string; here it is a run error naming the limit.
    expect(reason('len(sprig.repeat(500000000, "ab"))')).toBe(
      'string longer than 536870888 characters, the most JavaScript can hold (the real engine has no such limit) (1:11)',
    );
  });
});
