import type { ExecuteTemplateReply } from '@app/contract';
import { ExecutionBound } from './execution-bound.js';

describe('ExecutionBound', () => {
  it('runs at most `limit` calls at a time and answers the rest Running with a requeue, starting nothing', async () => {
    const release: Array<() => void> = [];
    let started = 0;
    const inner = {
      execute: () =>
        new Promise<ExecuteTemplateReply>((resolve) => {
          started++;
          release.push(() => resolve({ node: { phase: 'Succeeded' } }));
        }),
    };
    const bound = new ExecutionBound(inner, 'slack', 2, 3000);
    const first = [bound.execute({}), bound.execute({})];
    const third = await bound.execute({});
    expect(started).toBe(2);
    expect(bound.inFlight).toBe(2);
    expect(third).toEqual({
      node: { phase: 'Running', message: 'slack: busy (2 executions in flight); trying again in 3s' },
      requeue: '3s',
    });
    release.forEach((r) => r());
    await Promise.all(first);
    expect(bound.inFlight).toBe(0);
    const fourth = bound.execute({});
    expect(started).toBe(3);
    release[2]();
    expect((await fourth).node?.phase).toBe('Succeeded');
  });

  it('frees its slot when the inner call throws', async () => {
    const bound = new ExecutionBound({ execute: () => Promise.reject(new Error('x')) }, 'k', 1);
    await expect(bound.execute({})).rejects.toThrow('x');
    expect(bound.inFlight).toBe(0);
  });
});
