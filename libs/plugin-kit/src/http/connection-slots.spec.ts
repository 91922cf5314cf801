import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { ConnectionSlots } from './connection-slots.js';

class FakeSocket extends EventEmitter {
  destroyed = false;
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

const sockets = (n: number): Socket[] =>
  Array.from({ length: n }, () => new FakeSocket() as unknown as Socket);

describe('ConnectionSlots', () => {
  it('admits up to max; past it the oldest unauthenticated connection makes room for the new one', () => {
    const slots = new ConnectionSlots(4);
    const [a, b, c, d, e, f] = sockets(6);
    for (const s of [a, b, c, d]) expect(slots.admit(s)).toBe(true);
    expect(slots.admit(e)).toBe(true);
    expect([a, b, c, d, e].map((s) => s.destroyed)).toEqual([true, false, false, false, false]);
    expect(slots.admit(f)).toBe(true);
    expect(b.destroyed).toBe(true);
    expect(slots.open).toBe(4);
  });

  it('never closes a connection that presented the token; with every slot authenticated, the new one is closed', () => {
    const slots = new ConnectionSlots(3);
    const [agent1, agent2, stranger, next, last] = sockets(5);
    for (const s of [agent1, agent2, stranger]) slots.admit(s);
    slots.authenticate(agent1);
    slots.authenticate(agent2);
    expect(slots.admit(next)).toBe(true);
    expect(stranger.destroyed).toBe(true);
    slots.authenticate(next);
    expect(slots.admit(last)).toBe(false);
    expect(last.destroyed).toBe(true);
    expect([agent1, agent2, next].some((s) => s.destroyed)).toBe(false);
  });

  it('frees the slot of a connection that closes', () => {
    const slots = new ConnectionSlots(2);
    const [a, b, c] = sockets(3);
    slots.admit(a);
    slots.admit(b);
    slots.authenticate(b);
    b.destroy();
    expect(slots.open).toBe(1);
    expect(slots.admit(c)).toBe(true);
    expect(a.destroyed).toBe(false);
  });
});
