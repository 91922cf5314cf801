import { request } from 'node:http';

export interface FloodOutcome {
  /** The reply, when one came before the connection closed. */
  status?: number;
  body?: string;
  /** The connection error otherwise (ECONNRESET, EPIPE). */
  error?: string;
  /** Bytes of body written before the reply or the error. */
  sent: number;
}

export interface FloodRequest {
  path: string;
  headers: Record<string, string>;
  /** Body bytes to send, 1 MiB at a time, chunked unless `contentLength`. */
  bytes: number;
  contentLength?: boolean;
}

const CHUNK = Buffer.alloc(1024 * 1024, 'a');

/**
 * A client that sends a big body as fast as the server takes it and stops at the first sign of an answer: the
 * reply (read to the end) or a connection error. Nothing of the body is held in this process.
 */
export function flood(url: string, r: FloodRequest): Promise<FloodOutcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = (outcome: Omit<FloodOutcome, 'sent'>): void => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ ...outcome, sent });
    };
    const req = request({
      hostname,
      port,
      path: r.path,
      method: 'POST',
      headers: { ...r.headers, ...(r.contentLength && { 'Content-Length': String(r.bytes) }) },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => finish({ status: res.statusCode, body }));
      res.on('error', (err: NodeJS.ErrnoException) => finish({ status: res.statusCode, error: err.code }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? err.message }));
    const pump = (): void => {
      while (!done && sent < r.bytes) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once('drain', pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}
