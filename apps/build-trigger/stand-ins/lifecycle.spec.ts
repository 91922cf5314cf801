import { Lifecycle } from './lifecycle.js';

describe('Lifecycle', () => {
  it('advances by reads', () => {
    const life = new Lifecycle([{ state: 'a', polls: 2 }, { state: 'b', polls: 1 }, { state: 'c' }]);
    expect([life.read(), life.read(), life.read(), life.read(), life.read()]).toEqual([
      'a',
      'a',
      'b',
      'c',
      'c',
    ]);
    expect(life.final).toBe(true);
  });

  it('advances by time, whichever comes first', () => {
    let now = 0;
    const life = new Lifecycle(
      [{ state: 'a', ms: 100, polls: 5 }, { state: 'b', ms: 50 }, { state: 'c' }],
      () => now,
    );
    expect(life.read()).toBe('a');
    now = 120;
    expect(life.state).toBe('b');
    now = 170;
    expect(life.state).toBe('c');
  });

  it('jumps to a final state', () => {
    const life = new Lifecycle([{ state: 'running', polls: 10 }, { state: 'done' }]);
    life.read();
    life.jump('aborted');
    expect([life.read(), life.read(), life.final]).toEqual(['aborted', 'aborted', true]);
  });
});
