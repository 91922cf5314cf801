import { eventEnv } from '@app/expr';
import { failedCondition } from './failed-condition.js';

const env = eventEnv({ ref: 'dev', tags: ['a', 'b'] }, { 'x-github-event': ['push'] }, '', 'argo');

describe('failedCondition', () => {
  it('names the first false condition of a conjunction and the value of its left side', () => {
    expect(failedCondition('metadata["x-github-event"] == ["push"] && payload.ref == "main"', env)).toEqual({
      condition: 'payload.ref == "main"',
      actual: 'payload.ref is "dev"',
    });
    expect(failedCondition('payload.ref != "dev" and true', env)).toEqual({
      condition: 'payload.ref != "dev"',
      actual: 'payload.ref is "dev"',
    });
  });

  it('does not split inside strings or brackets, and reports a missing field as nil', () => {
    expect(failedCondition('payload.ref == "a && b" && true', env)).toEqual({
      condition: 'payload.ref == "a && b"',
      actual: 'payload.ref is "dev"',
    });
    expect(failedCondition('(payload.ref == "x" && true)', env)).toEqual({
      condition: '(payload.ref == "x" && true)',
    });
    expect(failedCondition('payload.missing == "x"', env)).toEqual({
      condition: 'payload.missing == "x"',
      actual: 'payload.missing is nil',
    });
  });

  it('is undefined when no condition on its own is false', () => {
    expect(failedCondition('payload.ref == "dev"', env)).toBeUndefined();
  });
});
