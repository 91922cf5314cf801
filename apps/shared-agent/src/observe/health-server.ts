import { createServer, type Server } from 'node:http';

export interface HealthChecks {
  /** Why the agent is not ready, or undefined when it is. */
  notReady(): string | undefined;
  metrics(): string;
}

/**
 * `/healthz` (the process answers), `/readyz` (it has synced its watches and holds its Leases, and is not
 * stopping) and `/metrics` (Prometheus text). Nothing else: 404.
 */
export async function startHealthServer(
  checks: HealthChecks,
  port: number,
  host: string,
): Promise<Server & { port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    if (path === '/healthz') return send(200, 'ok\n');
    if (path === '/readyz') {
      const why = checks.notReady();
      return why ? send(503, `not ready: ${why}\n`) : send(200, 'ok\n');
    }
    if (path === '/metrics') return send(200, checks.metrics(), 'text/plain; version=0.0.4; charset=utf-8');
    send(404, 'not found\n');
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return Object.assign(server, { port: typeof address === 'object' && address ? address.port : port });
}
