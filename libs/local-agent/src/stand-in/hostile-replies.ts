import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** Replies of a hostile or broken upstream, for hardening tests (stand-ins and the reliability fault proxy). */
export type HostileReply =
  /** An error that echoes every request header and the body back (credentials included), as some proxies do. */
  | { kind: 'echo'; status?: number; pad?: number }
  /**
   * The request's credential (its Authorization header, else the first header named like a token or key)
   * echoed in an error body at exactly `offset` characters, behind `fill` (whitespace: what collapsing removes),
   * as text or in a JSON `message`: moves a credential across every cut of a plugin's error handling.
   */
  | { kind: 'echo-at'; offset: number; fill: string; json?: boolean; status?: number }
  /** A reply body of `bytes` bytes, streamed (chunked, or with its Content-Length when `declareLength`). */
  | { kind: 'huge'; bytes: number; status?: number; declareLength?: boolean }
  /** Headers at once, then one byte of body every `intervalMs` (default 1000), never finishing. */
  | { kind: 'trickle'; intervalMs?: number; status?: number }
  /** A redirect to another host. */
  | { kind: 'redirect'; location: string; status?: number }
  /**
   * JSON that is cheap in bytes and dear in heap, `bytes` long (under the byte caps): `wide` is `[{},{},…]`
   * (an object per 3 bytes), `deep` is `[[[…]]]` (a level of nesting per byte, then the closing brackets).
   */
  | { kind: 'dense'; shape: 'wide' | 'deep'; bytes: number; status?: number };

export interface HostileRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * The echoed error: `{"message": "<pad>rejected POST /x; authorization: Bearer …; …; body: …"}`. `pad`
 * characters in front move the echoed credentials across a message cut (200 characters) to check that the
 * plugin masks before it shortens.
 */
export function echoMessage(req: HostileRequest, pad = 0): string {
  const headers = Object.entries(req.headers)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`)
    .join('; ');
  return `${'.'.repeat(pad)}rejected ${req.method} ${req.url}; ${headers}; body: ${req.text}`;
}

/** The credential a request carries: its Authorization header, else the first token- or key-like header. */
export function requestCredential(headers: IncomingHttpHeaders): string {
  const name =
    headers.authorization !== undefined
      ? 'authorization'
      : Object.keys(headers).find((h) => /token|key|secret/i.test(h));
  const value = name === undefined ? undefined : headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** Writes `reply` to `res`; resolves when the reply is complete or the client went away. */
export async function writeHostileReply(
  reply: HostileReply,
  req: HostileRequest,
  res: ServerResponse,
): Promise<void> {
  switch (reply.kind) {
    case 'echo': {
      const text = JSON.stringify({ message: echoMessage(req, reply.pad), error: 'invalid_auth' });
      res.writeHead(reply.status ?? 401, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
    case 'echo-at': {
      const padding = reply.fill.repeat(Math.ceil(reply.offset / reply.fill.length)).slice(0, reply.offset);
      const echoed = `${padding}${requestCredential(req.headers)} rejected`;
      const text = reply.json ? JSON.stringify({ message: echoed }) : echoed;
      res.writeHead(reply.status ?? 400, {
        'Content-Type': reply.json ? 'application/json' : 'text/plain',
        'Content-Length': Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
    case 'redirect':
      res.writeHead(reply.status ?? 302, { Location: reply.location, 'Content-Length': 0 });
      res.end();
      return;
    case 'huge':
      return streamHuge(res, reply);
    case 'trickle':
      return trickle(res, reply);
    case 'dense': {
      const text = denseJson(reply.shape, reply.bytes);
      res.writeHead(reply.status ?? 200, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
  }
}

/** Valid JSON of exactly `bytes` bytes (at least 2) that builds as much as it can: see the `dense` reply. */
export function denseJson(shape: 'wide' | 'deep', bytes: number): string {
  if (shape === 'deep') {
    const depth = Math.floor(bytes / 2);
    return `${'['.repeat(depth)}${' '.repeat(bytes - 2 * depth)}${']'.repeat(depth)}`;
  }
  const objects = Math.max(0, Math.floor((bytes - 2) / 3));
  const text = `[${'{},'.repeat(objects)}`.slice(0, objects > 0 ? -1 : undefined);
  return `${text}${' '.repeat(bytes - text.length - 1)}]`;
}

async function streamHuge(
  res: ServerResponse,
  reply: Extract<HostileReply, { kind: 'huge' }>,
): Promise<void> {
  res.writeHead(reply.status ?? 200, {
    'Content-Type': 'application/json',
    ...(reply.declareLength && { 'Content-Length': reply.bytes }),
  });
  const chunk = Buffer.alloc(64 * 1024, 0x20); // JSON whitespace: a valid prefix of any reply
  let left = reply.bytes;
  while (left > 0 && !res.destroyed) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= part.length;
    if (!res.write(part)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
  }
  if (!res.destroyed) res.end();
}

async function trickle(
  res: ServerResponse,
  reply: Extract<HostileReply, { kind: 'trickle' }>,
): Promise<void> {
  res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json' });
  res.write('{');
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => res.write(' '), reply.intervalMs ?? 1000);
    res.once('close', () => {
      clearInterval(timer);
      resolve();
    });
  });
}
