import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { FaultPlan } from './faults.js';
import { writeHostileReply } from './hostile-replies.js';
import { standInHost } from './stand-in-host.js';
import type { StandInRequest } from './stand-in-request.js';

export type { StandInRequest } from './stand-in-request.js';

export interface StandInResponse {
  status?: number;
  headers?: Record<string, string | string[]>;
  /** Objects are sent as JSON; strings as they are. */
  body?: unknown;
}

export type RouteHandler = (req: StandInRequest) => StandInResponse | Promise<StandInResponse>;

export interface RecordedCall {
  method: string;
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  status: number;
  fault?: string;
  at: number;
}

/** Read-only counters for tools outside the process (conformance --count-url, the demo, benchmarks). Not recorded. */
export const INTROSPECTION_PATH = '/__stand-in/count';

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: RouteHandler;
}

/**
 * A loopback HTTP server that plays an upstream API in tests and in the demo. Routes use `:name` segments
 * (`/api/2.2/jobs/runs/get`, `/queue/item/:id/api/json`); every call is recorded; faults can be scripted
 * or injected at random from a seed. Unknown routes answer `notFound()` (override per upstream).
 */
export class StandInServer {
  readonly calls: RecordedCall[] = [];
  readonly faults = new FaultPlan();
  private readonly routes: Route[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  url = '';
  /** PEM key and certificate to serve HTTPS with (an upstream whose client accepts nothing else). */
  tls?: { key: string; cert: string };

  constructor(
    readonly name: string,
    private readonly notFound: (req: StandInRequest) => StandInResponse = () => ({
      status: 404,
      body: { error: 'not found' },
    }),
  ) {}

  route(method: string, path: string | RegExp, handler: RouteHandler): this {
    if (path instanceof RegExp) {
      this.routes.push({ method, pattern: path, names: [], handler });
      return this;
    }
    const names: string[] = [];
    const source = path
      .split('/')
      .map((segment) => {
        if (segment.startsWith(':')) {
          names.push(segment.slice(1).replace(/\*$/, ''));
          return segment.endsWith('*') ? '(.+)' : '([^/]+)';
        }
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
    return this;
  }

  /** Number of recorded calls matching method and path (a string prefix or a RegExp). */
  count(method: string, path: string | RegExp): number {
    return this.calls.filter(
      (c) => c.method === method && (typeof path === 'string' ? c.path.startsWith(path) : path.test(c.path)),
    ).length;
  }

  resetCalls(): void {
    this.calls.length = 0;
  }

  async start(port = 0): Promise<string> {
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`stand-in error: ${(err as Error).message}`);
      });
    };
    this.server = this.tls ? createTlsServer(this.tls, listener) : createServer(listener);
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    const host = standInHost();
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    const address = this.server.address();
    this.url = `${this.tls ? 'https' : 'http'}://${host}:${typeof address === 'object' && address ? address.port : port}`;
    return this.url;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /**
   * Counts recorded calls, optionally filtered: `GET /__stand-in/count?method=POST&path=/api/chat.postMessage`;
   * `&status=201` counts only the calls answered with that status (e.g. what an upstream created, not the
   * repeats it recognised by their idempotency key).
   */
  private introspect(query: URLSearchParams): StandInResponse {
    const method = query.get('method');
    const path = query.get('path');
    const status = query.get('status');
    const calls = this.calls.filter(
      (c) =>
        (!method || c.method === method) &&
        (!path || c.path.startsWith(path)) &&
        (!status || String(c.status) === status),
    );
    return { body: { name: this.name, count: calls.length, faultsInjected: this.faults.injected } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url?.startsWith(INTROSPECTION_PATH)) {
      req.resume();
      return send(res, this.introspect(new URLSearchParams(req.url.split('?')[1] ?? '')));
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const [rawPath, rawQuery = ''] = (req.url ?? '/').split('?', 2);
    const request: StandInRequest = {
      method: req.method ?? 'GET',
      path: rawPath,
      query: new URLSearchParams(rawQuery),
      headers: req.headers,
      text,
      body: parseBody(text, req.headers['content-type']),
      params: {},
    };
    const call: RecordedCall = {
      method: request.method,
      path: rawPath,
      query: rawQuery,
      headers: req.headers,
      body: request.body,
      status: 0,
      at: Date.now(),
    };
    this.calls.push(call);

    const fault = this.faults.take(request);
    if (fault) {
      call.fault = fault.kind;
      switch (fault.kind) {
        case 'reset':
          req.socket.destroy();
          return;
        case 'hang':
          return; // the socket stays open until the client gives up or the server closes
        case 'delay':
          await new Promise((r) => setTimeout(r, fault.ms));
          break;
        case 'status':
          call.status = fault.status;
          return send(res, {
            status: fault.status,
            body: fault.body ?? { error: `injected ${fault.status}` },
            headers: fault.headers,
          });
        case 'rate-limit':
          call.status = fault.status ?? 429;
          return send(res, {
            status: fault.status ?? 429,
            headers: { 'Retry-After': String(fault.retryAfterSeconds), ...fault.headers },
            body: fault.body ?? { error: 'rate limited' },
          });
        default:
          call.status = fault.status ?? (fault.kind === 'redirect' ? 302 : fault.kind === 'echo' ? 401 : 200);
          return writeHostileReply(
            fault,
            { method: request.method, url: req.url ?? '/', headers: req.headers, text },
            res,
          );
      }
    }

    const reply = await this.dispatch(request);
    call.status = reply.status ?? 200;
    send(res, reply);
  }

  private async dispatch(request: StandInRequest): Promise<StandInResponse> {
    for (const route of this.routes) {
      if (route.method !== request.method) continue;
      const m = route.pattern.exec(request.path);
      if (!m) continue;
      request.params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
      return route.handler(request);
    }
    return this.notFound(request);
  }
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  return undefined;
}

function send(res: ServerResponse, reply: StandInResponse): void {
  const status = reply.status ?? 200;
  const headers: Record<string, string | string[]> = { ...reply.headers };
  let payload = '';
  if (reply.body !== undefined) {
    if (typeof reply.body === 'string') payload = reply.body;
    else {
      payload = JSON.stringify(reply.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/json; charset=utf-8';
    }
  }
  res.writeHead(status, headers);
  res.end(status === 204 || status === 304 ? undefined : payload);
}
