import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { MAX_REPLY_BYTES, replyTooLarge } from '@app/argo-agent/go-http-client.js';
import { textOfCut } from './utf8-cut.js';

/** Why a call was made; the judging rules pick the exchanges they own by purpose. */
export type Purpose = 'own' | 'bad-config' | 'foreign' | 'cold-start';

/** One HTTP exchange between the agent's client and the plugin, as it was on the wire. */
export interface Exchange {
  purpose: Purpose;
  label: string;
  /** Identifies the request body: identical requests (duplicates, polls) share it. */
  request: number;
  status?: number;
  /** Response body (decompressed, first MAX_TEXT bytes). */
  text: string;
  /** Bytes of the response body that went through (as sent, compressed or not). */
  bytes?: number;
  ms: number;
  /** Set when no complete response arrived (refused, reset, closed mid-body). */
  error?: string;
}

/** The most of each reply kept for the rules (the client reads up to MAX_REPLY_BYTES, then hangs up). */
const MAX_TEXT = 1024 * 1024;

/**
 * A loopback pass-through between Argo's RPC client (reused as is) and the plugin, recording what the client
 * itself does not expose: the raw status and body of every attempt. Failures are passed on as failures (a
 * refused or dropped upstream connection drops the client's connection), so the client's retry logic sees
 * what it would see talking to the plugin directly.
 */
export class WireTap {
  readonly exchanges: Exchange[] = [];
  private readonly tags = new Map<string, { purpose: Purpose; label: string; request: number }>();
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  url = '';

  constructor(private readonly target: URL) {}

  /** Names the request body about to be sent, so its exchanges can be attributed. */
  tag(body: string, purpose: Purpose, label: string): void {
    const request = this.tags.get(body)?.request ?? this.tags.size + 1;
    this.tags.set(body, { purpose, label, request });
  }

  /** The exchanges of this exact request body so far. */
  forBody(body: string): Exchange[] {
    const request = this.tags.get(body)?.request;
    return request === undefined ? [] : this.exchanges.filter((e) => e.request === request);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tag = this.tags.get(body.toString('utf8')) ?? {
        purpose: 'own' as const,
        label: 'untagged',
        request: 0,
      };
      const started = performance.now();
      const record = (fields: Partial<Exchange>): void => {
        this.exchanges.push({ ...tag, text: '', ms: Math.round(performance.now() - started), ...fields });
      };
      let agentClosed = false;
      const upstream = request(
        {
          host: this.target.hostname,
          port: this.target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: this.target.host },
          agent: false,
        },
        (up) => {
          // Only the first MAX_TEXT bytes are kept, and the plugin is read no faster than the client reads:
          // a 1 GiB reply passes through a few buffers, never the heap.
          const received: Buffer[] = [];
          let bytes = 0;
          res.writeHead(up.statusCode ?? 502, up.statusMessage, up.headers);
          up.on('data', (c: Buffer) => {
            if (bytes < MAX_TEXT) received.push(c.subarray(0, MAX_TEXT - bytes));
            bytes += c.length;
            if (!res.write(c)) {
              up.pause();
              res.once('drain', () => up.resume());
            }
          });
          up.on('end', () => {
            res.end();
            record({
              status: up.statusCode,
              text: decode(Buffer.concat(received), bytes > MAX_TEXT, up.headers['content-encoding']),
              bytes,
            });
          });
          let cut = false;
          const onCut = (): void => {
            if (cut || up.complete) return;
            cut = true;
            record({
              status: up.statusCode,
              text: decode(Buffer.concat(received), bytes > MAX_TEXT),
              bytes,
              // The agent's client hangs up once it has the first JSON value (json.Decoder reads no further):
              // a body it did not wait for is not cut by the plugin; past MAX_REPLY_BYTES it stops reading.
              ...(bytes > MAX_REPLY_BYTES
                ? { error: replyTooLarge() }
                : !agentClosed && { error: 'connection closed mid-body' }),
            });
            res.destroy();
          };
          up.on('aborted', onCut);
          up.on('error', onCut);
        },
      );
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (!res.headersSent) record({ error: describeNetworkError(err) });
        res.destroy();
      });
      res.on('close', () => {
        if (res.writableFinished) return;
        agentClosed = true;
        upstream.destroy();
      });
      upstream.end(body);
    });
  }
}

/** The kept text of a reply; `cut`: the tap kept only its first MAX_TEXT bytes. */
function decode(data: Buffer, cut: boolean, encoding?: string): string {
  if (encoding === 'gzip') {
    try {
      return gunzipSync(data, { maxOutputLength: MAX_TEXT }).toString('utf8');
    } catch {
      // keep the raw bytes: the client reports the broken gzip itself
    }
  }
  return cut ? textOfCut(data) : data.toString('utf8');
}

function describeNetworkError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset by peer';
    default:
      return err.code ? `${err.code}: ${err.message}` : err.message;
  }
}
