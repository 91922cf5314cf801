import type { Socket } from 'node:net';

/**
 * The front's connection slots: never more than `max` connections. A connection is unauthenticated until a
 * request on it presents the agent's token (the agent's own new connections too, until their request is read).
 * When a new connection needs a slot and none is free, the oldest unauthenticated connection is closed to make
 * room; only when every slot is held by connections that presented the token is the new one closed at once.
 * A local client that opens every slot and reopens each one closed only ever closes its own connections: the
 * agent's new connection, the newest, has sent its request long before it would be the oldest.
 */
export class ConnectionSlots {
  /** In the order they were opened: the first is the oldest. */
  private readonly unauthenticated = new Set<Socket>();
  private readonly authenticated = new Set<Socket>();

  constructor(readonly max: number) {}

  get open(): number {
    return this.unauthenticated.size + this.authenticated.size;
  }

  /** Takes a slot for a new connection, closing the oldest unauthenticated one if need be; false: closed. */
  admit(socket: Socket): boolean {
    if (this.open >= this.max) {
      const oldest = this.unauthenticated.values().next();
      if (oldest.done) {
        socket.destroy();
        return false;
      }
      this.unauthenticated.delete(oldest.value);
      oldest.value.destroy();
    }
    this.unauthenticated.add(socket);
    socket.once('close', () => {
      this.unauthenticated.delete(socket);
      this.authenticated.delete(socket);
    });
    return true;
  }

  /** The connection presented the agent's token: it is never closed to make room. */
  authenticate(socket: Socket): void {
    if (this.unauthenticated.delete(socket)) this.authenticated.add(socket);
  }
}
