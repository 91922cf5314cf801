import { describe, expect, it } from '@jest/globals';

import { compile, execute, ExprRuntimeError } from './index.js';

// The condition of a review: 700 elements (well inside the memory budget), 343 million iterations.
const NESTED = 'let r = 1..700; all(r, all(r, all(r, true)))';

function reason(source: string, budget: Parameters<typeof execute>[2]): string {
  try {
    execute(compile(source, {}), {}, budget);
  } catch (e) {
    if (e instanceof ExprRuntimeError) return e.reason;
    throw e;
  }
  return 'no error';
}

describe('a run’s step and time budget (a host’s bound: expr’s VM has none)', () => {
  it('fails a run past its steps: every node evaluated, a closure’s body once per element, a range’s elements', () => {
    expect(reason(NESTED, { maxSteps: 100_000 })).toBe('step budget exceeded');
    expect(reason('len(1..50000) > 0', { maxSteps: 40_000 })).toBe('step budget exceeded');
    expect(reason('len(1..50000) > 0', { maxSteps: 60_000 })).toBe('no error');
    expect(reason('all(1..100, # > 0)', { maxSteps: 600 })).toBe('no error');
    expect(reason('all(1..100, # > 0)', { maxSteps: 200 })).toBe('step budget exceeded');
  });

  it('counts every element a run makes, as the memory budget does: lists made by builtins too', () => {
    expect(reason('len(repeat("ab", 30000)) > 0', { maxSteps: 50_000 })).toBe('step budget exceeded');
    expect(reason('len(repeat("ab", 20000)) > 0', { maxSteps: 50_000 })).toBe('no error');
    expect(reason('len(concat(1..20000, 1..20000)) > 0', { maxSteps: 50_000 })).toBe('step budget exceeded');
  });

  it('fails a run past its time, checked with the steps', () => {
    const started = performance.now();
    expect(reason(NESTED, { timeoutMs: 50 })).toBe('time budget exceeded');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('has none by default, and counts each run afresh', () => {
    expect(reason('let r = 1..300; all(r, all(r, true))', undefined)).toBe('no error');
    const program = compile('all(1..100, # > 0)', {});
    for (let i = 0; i < 5; i++) expect(execute(program, {}, { maxSteps: 600 })).toBe(true);
  });

  it('says where the run was stopped, as every run error does', () => {
    try {
      execute(compile(NESTED, {}), {}, { maxSteps: 1000 });
    } catch (e) {
      expect((e as Error).message).toMatch(/^step budget exceeded \(1:\d+\)\n \| let r = 1\.\.700;/);
    }
    expect.assertions(1);
  });
});
