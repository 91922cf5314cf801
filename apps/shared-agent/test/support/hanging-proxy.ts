// A TCP proxy in front of the API server that can stop answering (a partition that hangs rather than fails):
// once hung, nothing more is passed either way on the connections it has, and new ones are accepted and left
// silent.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export class HangingProxy {
  private hung = false;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<HangingProxy> {
    const { hostname, port } = new URL(target);
    const proxies: HangingProxy[] = [];
    const server = createServer((client) => proxies[0]!.accept(client, hostname, Number(port)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    proxies.push(new HangingProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    return proxies[0]!;
  }

  hang(): void {
    this.hung = true;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }

  private accept(client: Socket, host: string, port: number): void {
    this.sockets.add(client);
    client.on('error', () => undefined);
    client.on('close', () => this.sockets.delete(client));
    if (this.hung) return;
    const upstream = connect(port, host);
    this.sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => this.sockets.delete(upstream));
    client.on('close', () => upstream.destroy());
    const pass = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (!this.hung) to.write(chunk);
      });
    pass(client, upstream);
    pass(upstream, client);
  }
}
