import { connect, type Socket } from 'node:net';

export interface SlotHolder {
  /** Resolves once `count` connections have been accepted. */
  filled: Promise<void>;
  /** Connections opened so far (reopens included). */
  readonly opened: number;
  stop(): void;
}

/**
 * An unauthenticated local client that tries to hold `count` connections to the front at all times: each
 * sends nothing and is reopened as soon as the front closes it.
 */
export function holdSlots(port: number, count: number): SlotHolder {
  const sockets = new Set<Socket>();
  let opened = 0;
  let connected = 0;
  let stopped = false;
  let markFilled: () => void;
  const filled = new Promise<void>((resolve) => (markFilled = resolve));
  const open = (): void => {
    if (stopped) return;
    opened++;
    const socket = connect(port, '127.0.0.1');
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      if (++connected >= count) markFilled();
    });
    socket.once('close', () => {
      sockets.delete(socket);
      open();
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    filled,
    get opened() {
      return opened;
    },
    stop() {
      stopped = true;
      sockets.forEach((s) => s.destroy());
    },
  };
}
