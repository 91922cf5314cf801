// A TCP proxy in front of the API server that can stop answering (a partition that hangs rather than fails):
// once hung, nothing more is passed either way on the connections it has (the bytes wait), and new ones are
// accepted and left silent; resumed, everything waiting goes through.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export class HangingProxy {
  private hung = false;
  private readonly sockets = new Set<Socket>();
  private readonly waiting: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: string): Promise<HangingProxy> {
    const { hostname, port } = new URL(target);
    const proxies: HangingProxy[] = [];
    const server = createServer((client) => proxies[0]!.accept(client));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    proxies.push(new HangingProxy(server, url, { host: hostname, port: Number(port) }));
    return proxies[0]!;
  }

  hang(): void {
    this.hung = true;
    for (const s of this.sockets) s.pause();
  }

  resume(): void {
    this.hung = false;
    for (const s of this.sockets) s.resume();
    for (const open of this.waiting.splice(0)) open();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }

  private accept(client: Socket): void {
    client.on('error', () => undefined);
    this.sockets.add(client);
    const open = () => {
      const upstream = connect(this.target.port, this.target.host);
      this.sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        client.destroy();
      });
      client.on('close', () => {
        this.sockets.delete(client);
        upstream.destroy();
      });
      client.pipe(upstream);
      upstream.pipe(client);
    };
    if (this.hung) {
      client.pause();
      this.waiting.push(open);
    } else open();
  }
}
