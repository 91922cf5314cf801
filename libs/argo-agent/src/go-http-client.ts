import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { FirstValueReader, GoDecodeError } from './json-decode.js';

/**
 * Go's `http.Client{Timeout}` as Argo's plugin client uses it, for one POST:
 * - one deadline for the whole exchange: redirects, headers and reading the body;
 * - redirects as Client.Do follows them: 301/302/303 become a GET without a body, 307/308 send the same
 *   method and body again; a 3xx without Location is the response itself; the 11th redirect is the error
 *   `stopped after 10 redirects`; Authorization is dropped when the host name changes (other than to a
 *   subdomain); each hop carries Referer: <previous URL>;
 * - errors worded as Go words them: `Post "<url>": dial tcp 127.0.0.1:1: connect: connection refused`,
 *   `Post "<url>": EOF` (closed before a reply), `... (Client.Timeout exceeded while awaiting headers)`;
 * - `transient` says whether Argo's retry predicate (connection refused, net.OpError, url.Error with EOF,
 *   io.ErrUnexpectedEOF, Temporary() errors such as timeouts) retries it.
 */
export class GoHttpError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export interface GoResponse {
  status: number;
  /** Go's resp.Status: the status line after the protocol (`500 Kaboom`), as the server wrote it. */
  statusText: string;
  /** Reads up to the end of the first JSON value (json.Decoder); the rest of the body is never read. */
  readFirstValue(): Promise<Buffer>;
  /** io.ReadAll of the body. */
  readAll(): Promise<Buffer>;
  /** Ends the exchange: clears the deadline and drops the connection. */
  close(): void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;
const SENSITIVE = ['authorization', 'www-authenticate', 'cookie', 'cookie2', 'proxy-authorization'];

/** Go's url.Error text: `Post "http://…": <cause>` (the URL quoted as strconv.Quote would). */
const urlError = (method: string, url: string, cause: string): string =>
  `${method[0]!.toUpperCase()}${method.slice(1).toLowerCase()} ${JSON.stringify(url)}: ${cause}`;

/** Whether Go keeps Authorization on a redirect from `from` to `to` (same host name, or a subdomain of it). */
export function keepsCredentials(from: URL, to: URL): boolean {
  const a = from.hostname.toLowerCase();
  const b = to.hostname.toLowerCase();
  return a === b || b.endsWith(`.${a}`);
}

interface Hop {
  url: URL;
  method: string;
  body?: string;
  headers: OutgoingHttpHeaders;
}

export async function goPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<GoResponse> {
  let onTimeout: (() => void) | undefined;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    onTimeout?.();
  }, timeoutMs);
  const close = (res?: IncomingMessage): void => {
    clearTimeout(timer);
    res?.destroy();
  };

  const first = new URL(url);
  let hop: Hop = { url: first, method: 'POST', body, headers: { ...headers } };
  let stripped = false;
  for (let hops = 0; ; hops++) {
    let res: IncomingMessage;
    try {
      res = await send(hop, (abort) => {
        onTimeout = () => abort(new Error('timeout'));
      });
    } catch (err) {
      close();
      if (timedOut)
        throw new GoHttpError(
          urlError(
            'POST',
            hop.url.href,
            'context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
          ),
          true,
        );
      throw networkError(hop.url.href, err as NodeJS.ErrnoException);
    }
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode ?? 0) || !location)
      return response(
        res,
        () => timedOut,
        (f) => (onTimeout = f),
        close,
      );
    res.resume();
    let next: URL;
    try {
      next = new URL(location, hop.url);
    } catch (err) {
      close(res);
      throw new GoHttpError(
        urlError(
          'POST',
          hop.url.href,
          `failed to parse Location header ${JSON.stringify(location)}: ${(err as Error).message}`,
        ),
        false,
      );
    }
    if (hops + 1 >= MAX_REDIRECTS) {
      close(res);
      throw new GoHttpError(urlError('POST', location, 'stopped after 10 redirects'), false);
    }
    const keepBody = res.statusCode === 307 || res.statusCode === 308;
    if (!stripped && first.host !== next.host && !keepsCredentials(first, next)) stripped = true;
    const nextHeaders: OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(headers)) {
      if (stripped && SENSITIVE.includes(k.toLowerCase())) continue;
      nextHeaders[k] = v;
    }
    if (!(hop.url.protocol === 'https:' && next.protocol === 'http:')) {
      const referer = new URL(hop.url.href);
      referer.username = '';
      referer.password = '';
      nextHeaders.Referer = referer.href;
    }
    hop = {
      url: next,
      method: keepBody ? hop.method : hop.method === 'GET' || hop.method === 'HEAD' ? hop.method : 'GET',
      body: keepBody ? hop.body : undefined,
      headers: nextHeaders,
    };
  }
}

function send(hop: Hop, setAbort: (abort: (err: Error) => void) => void): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers = { ...hop.headers };
    if (hop.body !== undefined) headers['Content-Length'] = Buffer.byteLength(hop.body);
    const req = httpRequest(hop.url, { method: hop.method, headers, agent: false }, resolve);
    setAbort((err) => req.destroy(err));
    req.on('error', reject);
    req.end(hop.body);
  });
}

/** A connection-level failure before a response, as Go's transport words it (inside the url.Error). */
function networkError(
  url: string,
  err: NodeJS.ErrnoException & { address?: string; port?: number },
): GoHttpError {
  const addr = err.address
    ? `${err.address.includes(':') ? `[${err.address}]` : err.address}:${err.port ?? ''}`
    : new URL(url).host;
  switch (err.code) {
    case 'ECONNREFUSED':
      return new GoHttpError(urlError('POST', url, `dial tcp ${addr}: connect: connection refused`), true);
    case 'ECONNRESET':
      // A close before any byte of a reply is io.EOF in Go's transport; a reset is a read error.
      return err.message === 'socket hang up'
        ? new GoHttpError(urlError('POST', url, 'EOF'), true)
        : new GoHttpError(urlError('POST', url, `read tcp ${addr}: read: connection reset by peer`), true);
    case 'EPIPE':
      return new GoHttpError(urlError('POST', url, `write tcp ${addr}: write: broken pipe`), true);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new GoHttpError(
        urlError('POST', url, `dial tcp: lookup ${new URL(url).hostname}: no such host`),
        true,
      );
    default:
      if (err.code?.startsWith('HPE_'))
        return new GoHttpError(
          urlError('POST', url, 'net/http: HTTP/1.x transport connection broken: malformed HTTP response'),
          false,
        );
      return new GoHttpError(urlError('POST', url, err.message), false);
  }
}

function response(
  res: IncomingMessage,
  timedOut: () => boolean,
  setOnTimeout: (f: () => void) => void,
  close: (res?: IncomingMessage) => void,
): GoResponse {
  const status = res.statusCode ?? 0;
  // Go decompresses transparently when it asked for gzip itself.
  const stream: Readable = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
  const read = (onChunk: (chunk: Buffer) => boolean, atEnd: () => void): Promise<void> =>
    new Promise((resolve, reject) => {
      let settled = false;
      const settle = (err?: Error): void => {
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve();
      };
      const timeoutError = new GoHttpError(
        'context deadline exceeded (Client.Timeout or context cancellation while reading body)',
        true,
      );
      if (timedOut()) return settle(timeoutError);
      setOnTimeout(() => {
        settle(timeoutError);
        res.destroy();
      });
      stream.on('data', (chunk: Buffer) => {
        try {
          if (onChunk(chunk)) settle();
        } catch (err) {
          settle(err as Error);
        }
      });
      stream.on('end', () => {
        try {
          atEnd();
          settle();
        } catch (err) {
          settle(err as Error);
        }
      });
      // A body cut short (fewer bytes than Content-Length, a broken chunked stream): io.ErrUnexpectedEOF.
      stream.on('error', (err: NodeJS.ErrnoException) =>
        settle(
          err.code?.startsWith('Z_')
            ? new GoHttpError(err.code === 'Z_DATA_ERROR' ? 'gzip: invalid header' : 'unexpected EOF', false)
            : new GoHttpError('unexpected EOF', true),
        ),
      );
      res.on('aborted', () => settle(new GoHttpError('unexpected EOF', true)));
      res.on('close', () => {
        if (!res.complete) settle(new GoHttpError('unexpected EOF', true));
      });
    });
  return {
    status,
    statusText: res.statusMessage ? `${status} ${res.statusMessage}` : String(status),
    async readFirstValue() {
      const reader = new FirstValueReader();
      try {
        await read(
          (chunk) => reader.push(chunk),
          () => reader.end(),
        );
      } catch (err) {
        if (err instanceof GoDecodeError) throw new GoHttpError(err.message, err.transient);
        throw err;
      }
      return reader.value();
    },
    async readAll() {
      const chunks: Buffer[] = [];
      await read(
        (chunk) => {
          chunks.push(chunk);
          return false;
        },
        () => undefined,
      );
      return Buffer.concat(chunks);
    },
    close: () => close(res),
  };
}
