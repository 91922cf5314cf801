import { request } from 'node:http';
import { connect } from 'node:net';
import { textOfCut } from './utf8-cut.js';

/** The most of a reply kept (evidence, secret scans); a longer one is not read further, as the agent's client would not. */
const MAX_TEXT = 1024 * 1024;

/** A request sent outside the agent's client: other methods and paths, bad tokens, oversized bodies. */
export interface RawExchange {
  what: string;
  method: string;
  path: string;
  status?: number;
  text: string;
  ms: number;
  error?: string;
}

export interface RawRequest {
  what: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  /** Called once the whole request is on the wire (before any reply). */
  onSent?: () => void;
}

export function rawRequest(base: URL, spec: RawRequest): Promise<RawExchange> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  const body = spec.body ?? '';
  return new Promise((resolve) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: spec.method,
        path: spec.path,
        agent: false,
        headers: {
          ...(body !== '' && {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
          }),
          ...spec.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (c: Buffer) => {
          chunks.push(c.subarray(0, Math.max(0, MAX_TEXT - received)));
          received += c.length;
          if (received <= MAX_TEXT) return;
          clearTimeout(timer);
          res.destroy();
          resolve({
            ...sent(spec),
            status: res.statusCode,
            text: textOfCut(Buffer.concat(chunks)),
            ms: ms(),
            error: `reply larger than ${MAX_TEXT / (1024 * 1024)} MiB: read no further`,
          });
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            ...sent(spec),
            status: res.statusCode,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: ms(),
          });
        });
        res.on('error', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            ...sent(spec),
            status: res.statusCode,
            text,
            ms: ms(),
            error: 'connection closed mid-body',
          });
        });
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`no reply within ${spec.timeoutMs ?? 10_000} ms`)),
      spec.timeoutMs ?? 10_000,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ...sent(spec), text: '', ms: ms(), error: err.code ?? err.message });
    });
    if (spec.onSent) req.once('finish', spec.onSent);
    req.end(body);
  });
}

const sent = (spec: RawRequest): Pick<RawExchange, 'what' | 'method' | 'path'> => ({
  what: spec.what,
  method: spec.method,
  path: spec.path,
});

export interface BigBodyProbe {
  what: string;
  path: string;
  authorization?: string;
  /** Content-Length announced in the headers. */
  declaredBytes: number;
  /** How much of it is actually sent before waiting for the reply. */
  sentBytes: number;
  waitMs: number;
}

export interface BigBodyResult extends RawExchange {
  bytesSent: number;
}

/**
 * Announces a large body, sends only its first bytes, and waits: a plugin that checks the token before
 * reading answers 403 at once; one that reads first waits for bytes that never come.
 */
export function bigBodyProbe(base: URL, probe: BigBodyProbe): Promise<BigBodyResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(base.port || 80), base.hostname);
    let text = '';
    let settled = false;
    const finish = (error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      const bodyStart = text.indexOf('\r\n\r\n');
      resolve({
        what: probe.what,
        method: 'POST',
        path: probe.path,
        status: status ? Number(status) : undefined,
        text: bodyStart >= 0 ? text.slice(bodyStart + 4) : text,
        ms: Math.round(performance.now() - started),
        bytesSent: Math.max(0, socket.bytesWritten - headerBytes),
        error,
      });
      socket.destroy();
    };
    const timer = setTimeout(() => finish(`no reply within ${probe.waitMs} ms`), probe.waitMs);
    const head =
      `POST ${probe.path} HTTP/1.1\r\nHost: ${base.host}\r\n` +
      (probe.authorization !== undefined ? `Authorization: ${probe.authorization}\r\n` : '') +
      `Content-Type: application/json\r\nContent-Length: ${probe.declaredBytes}\r\n\r\n`;
    const headerBytes = Buffer.byteLength(head);
    socket.on('connect', () => {
      socket.write(head);
      socket.write(Buffer.alloc(probe.sentBytes, 0x20));
    });
    socket.setEncoding('utf8'); // one decoder per connection: a character split between reads stays whole
    socket.on('data', (chunk: string) => {
      // The status line and the headers are what counts: a reply streaming on is not kept.
      if (text.length < MAX_TEXT) text += chunk;
      // The status line and headers are enough; a short body may follow in the same packet.
      if (text.includes('\r\n\r\n')) setTimeout(() => finish(), 20);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish(text ? undefined : (err.code ?? err.message)));
    socket.on('close', () => finish(text ? undefined : 'connection closed without a reply'));
  });
}
