import { Lifecycle } from './lifecycle.js';

describe('Lifecycle', () => {
  it('walks by status reads (one per step unless told), stays on the last step, and can be redirected', () => {
    const l = new Lifecycle([{ state: 'a', polls: 2 }, { state: 'b' }, { state: 'c' }]);
    expect([l.read().state, l.read().state, l.read().state, l.read().state, l.read().state]).toEqual([
      'a',
      'a',
      'b',
      'c',
      'c',
    ]);
    expect(l.finished).toBe(true);
    const m = new Lifecycle([{ state: 'a', polls: 5 }, { state: 'b' }]);
    m.redirect([{ state: 'x' }, { state: 'y' }]);
    expect([m.read().state, m.read().state]).toEqual(['x', 'y']);
  });

  it('walks by time when steps have a duration', () => {
    let now = 0;
    const l = new Lifecycle([{ state: 'a', ms: 100 }, { state: 'b', ms: 50 }, { state: 'c' }], () => now);
    expect(l.peek().state).toBe('a');
    now = 120;
    expect(l.peek().state).toBe('b');
    now = 151;
    expect(l.peek().state).toBe('c');
    expect(l.endedAt).toBe(150);
  });

  it('with both reads and a duration, moves on at whichever comes first', () => {
    let now = 0;
    const l = new Lifecycle(
      [{ state: 'a', ms: 100, polls: 5 }, { state: 'b', ms: 50 }, { state: 'c' }],
      () => now,
    );
    expect(l.read().state).toBe('a');
    now = 120;
    expect(l.state).toBe('b');
    expect([l.read().state, l.read().state]).toEqual(['b', 'b']); // a duration alone: reads do not count
    now = 170;
    expect(l.state).toBe('c');
    const quick = new Lifecycle([{ state: 'a', ms: 100, polls: 2 }, { state: 'b' }], () => now);
    expect([quick.read().state, quick.read().state, quick.read().state]).toEqual(['a', 'a', 'b']);
  });

  it('is cut short by a redirect to a final state', () => {
    const l = new Lifecycle([{ state: 'running', polls: 10 }, { state: 'done' }]);
    l.read();
    l.redirect([{ state: 'aborted' }]);
    expect([l.read().state, l.read().state, l.finished]).toEqual(['aborted', 'aborted', true]);
  });
});
