import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { EXECUTE_TEMPLATE_PATH, type ExecuteTemplateReply } from '@app/contract';
import type { TokenGuard } from '../auth/token-guard.js';
import { OverloadedError } from '../execution/overloaded-error.js';
import type { PluginLogger } from '../logging/plugin-logger.js';
import { bodyBudgetFor, type BodyBudget } from './body-budget.js';
import { ConnectionSlots } from './connection-slots.js';
import { BodyBudgetSpentError, BodyTooLargeError, readBody, type BodyLimits } from './body-reader.js';

export interface TemplateDispatcher {
  execute(body: unknown): Promise<ExecuteTemplateReply>;
  /**
   * The workflow of this request was stopped: cancel the remote work its earlier calls started, if any.
   * Answers whether a cancel was sent upstream. Not part of Argo's contract: only an agent that hosts the
   * plugins in process can call it.
   */
  cancel?(body: unknown): Promise<boolean>;
}

export interface ContractServerOptions {
  guard: TokenGuard;
  dispatcher: TemplateDispatcher;
  logger: PluginLogger;
  /** Bytes, JSON values and nesting of a request body (413 beyond). */
  bodyLimits: BodyLimits;
  /**
   * Most open connections; when a new one needs a slot, the oldest connection that has not presented the
   * agent's token is closed (see ConnectionSlots); with every slot authenticated, the new one is closed at once.
   */
  maxConnections?: number;
}

/**
 * Connection bounds of the front. The agent sends a whole request at once from the same pod, so a client
 * that has sent nothing 10 s after connecting, not its headers within 10 s, or not its body within 15 s, is
 * not the agent; an idle keep-alive connection is closed after 5 s (the agent reconnects); timeouts are
 * checked every second, so idle and half-open connections never pile up, and there are never more than
 * `maxConnections` (the oldest connection that has not presented the agent's token is closed to make room for
 * a new one). Measured in test/reliability/hostile-upstream.e2e-spec.ts.
 */
export const FRONT_LIMITS = {
  maxConnections: 256,
  headersTimeout: 10_000,
  requestTimeout: 15_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * The HTTP side of the contract, written once for every plugin:
 *   1. auth on every path and method, before the body is read (403);
 *   2. only POST /api/v1/template.execute exists (404 otherwise);
 *   3. 503 while draining for shutdown;
 *   4. body limits, checked while the body arrives: bytes, JSON values and nesting (413), what the bodies in
 *      flight hold together (503 + Retry-After for a heavy body past it); then JSON parsing (400);
 *   5. dispatch, then 200 with a JSON body (503 + Retry-After when the plugin runs all the executions it may).
 * Plain node:http: it is on the hot path of every call and on the cold-start path of every agent pod.
 */
export class ContractServer {
  readonly server: Server;
  private draining = false;
  private active = 0;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly bodies: BodyBudget;
  private readonly slots: ConnectionSlots;

  constructor(private readonly options: ContractServerOptions) {
    this.bodies = bodyBudgetFor(options.bodyLimits);
    const { maxConnections, ...timeouts } = FRONT_LIMITS;
    this.server = createServer(timeouts, (req, res) => {
      this.active++;
      res.on('close', () => this.onResponseDone());
      this.handle(req, res).catch((err: unknown) => {
        options.logger.error({ err }, 'unexpected error in the HTTP front');
        if (!res.headersSent) reply(res, 400, 'bad request');
      });
    });
    this.slots = new ConnectionSlots(options.maxConnections ?? maxConnections);
    this.server.on('connection', (socket: Socket) => {
      if (!this.slots.admit(socket)) return;
      // Node's header timeout only starts with the first byte: a connection that never sends one is closed here.
      const timer = setTimeout(() => {
        if (socket.bytesRead === 0) socket.destroy();
      }, timeouts.headersTimeout);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    });
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
      // Malformed HTTP, oversized headers, ... : a short 400 and close, never a crash.
      if (socket.writable)
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 11\r\n\r\nbad request');
      else socket.destroy();
      options.logger.debug({ code: err.code }, 'malformed request');
    });
  }

  get inFlight(): number {
    return this.active;
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** Stops accepting connections; calls still arriving on open connections get 503. */
  startDraining(): void {
    this.draining = true;
    this.server.close();
    this.server.closeIdleConnections();
  }

  /** Resolves when no request is being handled, or after `timeoutMs`; returns whether it went idle. */
  async idle(timeoutMs: number): Promise<boolean> {
    if (this.active === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      new Promise<true>((resolve) => this.idleWaiters.push(() => resolve(true))),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    return result;
  }

  close(): void {
    this.draining = true;
    this.server.close();
    this.server.closeAllConnections();
  }

  private onResponseDone(): void {
    this.active--;
    if (this.active === 0) this.idleWaiters.splice(0).forEach((wake) => wake());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!(await this.options.guard.authorize(req.headers.authorization)))
      return refuse(req, res, 403, 'forbidden');
    this.slots.authenticate(req.socket);
    const path = (req.url ?? '').split('?', 1)[0];
    if (req.method !== 'POST' || path !== EXECUTE_TEMPLATE_PATH) return refuse(req, res, 404, 'not found');
    if (this.draining) return refuse(req, res, 503, 'shutting down');

    const body = await this.readArgs(req, res);
    if (body === undefined) return;
    let result: ExecuteTemplateReply;
    try {
      result = await this.options.dispatcher.execute(body);
    } catch (err) {
      if (!(err instanceof OverloadedError)) throw err;
      res.setHeader('Retry-After', '1');
      return reply(res, 503, err.message);
    }
    const text = JSON.stringify(result);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }

  /**
   * The request body as an object, or undefined once the refusal is sent. Only the parsed body outlives this
   * call (the bytes and the text are dropped before the execution starts); its cost stays taken from the
   * budget until the reply is sent.
   */
  private async readArgs(req: IncomingMessage, res: ServerResponse): Promise<object | undefined> {
    const share = this.bodies.open();
    res.once('close', () => share.release());
    let raw: Buffer;
    try {
      raw = await readBody(req, this.options.bodyLimits, share);
    } catch (err) {
      if (err instanceof BodyTooLargeError) return refuse(req, res, 413, err.message);
      if (err instanceof BodyBudgetSpentError) {
        res.setHeader('Retry-After', '1');
        return refuse(req, res, 503, err.message);
      }
      return refuse(req, res, 400, 'could not read request body');
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      return reply(res, 400, `invalid JSON: ${(err as Error).message}`);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return reply(res, 400, 'request body must be an ExecuteTemplateArgs object');
    return body;
  }
}

function reply(res: ServerResponse, status: number, text: string, close = false): undefined {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...(close && { Connection: 'close' }),
  });
  res.end(text);
}

/**
 * Replies without reading the request body. If a body may still be on the wire, the connection is closed
 * after the reply (Node then stops reading), so a huge unauthenticated upload is never consumed.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, text: string): undefined {
  const declared = Number(req.headers['content-length'] ?? 0);
  const bodyPending = !req.complete && (declared > 0 || req.headers['transfer-encoding'] !== undefined);
  reply(res, status, text, bodyPending);
}
