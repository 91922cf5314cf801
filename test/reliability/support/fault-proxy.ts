import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { requestCredential, seededRandom, writeHostileReply, type HostileReply } from '@app/local-agent';

/** What the proxy does to a request instead of passing it through untouched. */
export type ProxyFault =
  | { kind: 'status'; status: number } // answered by the proxy: the upstream never sees it
  | { kind: 'rate-limit'; retryAfterSeconds: number } // 429 + Retry-After, upstream never sees it
  | { kind: 'reset' } // connection destroyed before forwarding
  | { kind: 'hang'; ms: number } // no answer for `ms`, then the connection is destroyed (never forwarded)
  | { kind: 'slow'; ms: number } // forwarded (the upstream acts), the answer is held back `ms`
  | { kind: 'lost-reply' }; // forwarded (the upstream acts), then the connection is destroyed

/**
 * A scripted attack: every request gets a hostile reply, or (rewrite) requests to `path` are forwarded and the
 * upstream's reply body is rewritten (a hostile Slack handing out an upload URL on another host).
 */
export type ProxyAttack = HostileReply | { kind: 'rewrite'; path: string; rewrite: (text: string) => string };

export interface FaultPlan {
  seed: number;
  /** Probability that a request gets a fault. */
  rate: number;
  faults: ProxyFault[];
}

/** Label of a fault for the figures: `status 503`, `rate-limit`, `slow`, ... */
export const faultLabel = (f: ProxyFault): string => (f.kind === 'status' ? `status ${f.status}` : f.kind);

/**
 * A loopback HTTP proxy in front of one stand-in, injecting faults at random from a seed. The stand-in's own
 * counters then see only what really reached it, so "one side effect per node" stays measurable while the
 * plugin sees 5xx, 429, resets, hangs, slow and lost replies. The target's origin in response headers and
 * bodies (Location, self links) is rewritten to the proxy's, so the plugin keeps talking through it.
 */
export class FaultProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly random: () => number;
  private readonly target: URL;
  url = '';
  requests = 0;
  forwarded = 0;
  readonly injected = new Map<string, number>();
  /** Statuses the upstream gave to the watched requests (the counted side effect), forwarded ones only. */
  readonly watched = new Map<number, number>();
  /** The largest response body seen, and the request it answered. */
  largest = { bytes: 0, request: '' };
  /** Off while a test sets things up or reads results. */
  enabled = true;
  /** The attack every request gets until it is cleared (undefined: pass through, random faults only). */
  attack?: ProxyAttack;
  /** Requests answered by an attack, the credential each carried, and how long each connection stayed open (ms). */
  readonly attacked: Array<{ request: string; credential?: string; heldMs?: number }> = [];
  private readonly attackedReplies = new Set<ServerResponse>();

  /** Ends the attack, dropping the connections of replies still being attacked (a trickle, a huge body). */
  stopAttack(): void {
    this.attack = undefined;
    for (const res of this.attackedReplies) res.destroy();
  }

  constructor(
    target: string,
    private readonly plan: FaultPlan,
    /** Requests whose upstream statuses are tallied in `watched` (method and path prefix, like a countUrl). */
    private readonly watch?: { method: string; path: string },
  ) {
    this.target = new URL(target);
    this.random = seededRandom(plan.seed);
  }

  /** `baseUrl` with its origin replaced by the proxy's (path kept). */
  via(baseUrl: string): string {
    const u = new URL(baseUrl);
    return `${this.url}${u.pathname}${u.search}`;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this.url;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  totalInjected(): number {
    return [...this.injected.values()].reduce((a, b) => a + b, 0);
  }

  private draw(): ProxyFault | undefined {
    if (!this.enabled || this.plan.faults.length === 0) return undefined;
    if (this.random() >= this.plan.rate) return undefined;
    return this.plan.faults[Math.floor(this.random() * this.plan.faults.length)];
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const attack = this.attack;
    if (attack && attack.kind !== 'rewrite') {
      const entry: { request: string; credential?: string; heldMs?: number } = {
        request: `${req.method} ${req.url}`,
        credential: requestCredential(req.headers),
      };
      this.attacked.push(entry);
      const t0 = performance.now();
      this.attackedReplies.add(res);
      res.once('close', () => {
        entry.heldMs = Math.round(performance.now() - t0);
        this.attackedReplies.delete(res);
      });
      const text = body.toString('utf8');
      await writeHostileReply(
        attack,
        { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, text },
        res,
      );
      return;
    }
    const fault = this.draw();
    if (fault) this.injected.set(faultLabel(fault), (this.injected.get(faultLabel(fault)) ?? 0) + 1);
    switch (fault?.kind) {
      case 'status':
        res.writeHead(fault.status, { 'Content-Type': 'text/html' });
        res.end(`<html><body><h1>${fault.status} injected by the fault proxy</h1></body></html>`);
        return;
      case 'rate-limit':
        res.writeHead(429, {
          'Retry-After': String(fault.retryAfterSeconds),
          'Content-Type': 'application/json',
        });
        res.end(JSON.stringify({ error: 'rate limited (injected)', message: 'API rate limit exceeded' }));
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        setTimeout(() => req.socket.destroy(), fault.ms).unref();
        return;
    }
    let upstream: { status: number; headers: Record<string, string | string[]>; body: Buffer };
    try {
      upstream = await this.forward(req, body);
    } catch {
      req.socket.destroy();
      return;
    }
    this.forwarded++;
    if (this.watch && req.method === this.watch.method && (req.url ?? '').startsWith(this.watch.path))
      this.watched.set(upstream.status, (this.watched.get(upstream.status) ?? 0) + 1);
    if (upstream.body.length > this.largest.bytes)
      this.largest = { bytes: upstream.body.length, request: `${req.method} ${req.url}` };
    if (fault?.kind === 'lost-reply') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'slow') await new Promise((r) => setTimeout(r, fault.ms));
    if (req.socket.destroyed) return;
    if (attack?.kind === 'rewrite' && (req.url ?? '').startsWith(attack.path)) {
      this.attacked.push({ request: `${req.method} ${req.url}` });
      upstream.body = Buffer.from(attack.rewrite(upstream.body.toString('utf8')));
      upstream.headers['content-length'] = String(upstream.body.length);
    }
    res.writeHead(upstream.status, upstream.headers);
    res.end(upstream.body);
  }

  private forward(
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
    const headers = { ...req.headers, host: this.target.host };
    return new Promise((resolve, reject) => {
      const out = request(
        {
          host: this.target.hostname,
          port: this.target.port,
          method: req.method,
          path: req.url,
          headers,
          agent: this.agent,
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const rewritten = this.rewrite(Buffer.concat(parts));
            const outHeaders: Record<string, string | string[]> = {};
            for (const [k, v] of Object.entries(res.headers)) {
              if (
                v === undefined ||
                ['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)
              )
                continue;
              outHeaders[k] = typeof v === 'string' ? this.rewriteText(v) : v;
            }
            outHeaders['content-length'] = String(rewritten.length);
            resolve({ status: res.statusCode ?? 502, headers: outHeaders, body: rewritten });
          });
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  private rewriteText(text: string): string {
    return text.split(this.target.origin).join(this.url);
  }

  private rewrite(body: Buffer): Buffer {
    const text = body.toString('latin1');
    return text.includes(this.target.origin) ? Buffer.from(this.rewriteText(text), 'latin1') : body;
  }
}
