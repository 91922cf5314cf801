import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { isIP } from 'node:net';
import { createGunzip } from 'node:zlib';
import { setLongTimeout } from '@app/contract';
import { blockedError, type BlockedNetworks } from './blocked-networks.js';
import { FirstValueReader, GoDecodeError } from './json-decode.js';

/**
 * Go's `http.Client` as Argo's agent uses it: with a Timeout for the plugin RPC, as http.DefaultClient under a
 * request context for HTTP templates:
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

/**
 * The most of a reply body read, decompressed (4 MiB). Argo's client has no such bound: it would decode a reply
 * of any size, hold it, and write its node into the WorkflowTaskSet, which etcd refuses past 1.5 MiB (its default
 * request limit). A reply past this bound fails the call (not retried) instead of filling this process's heap.
 */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;

export function replyTooLarge(limit = MAX_REPLY_BYTES): string {
  return `reply larger than ${limit / (1024 * 1024)} MiB: read no further (the agent would hold it all and store its node in the WorkflowTaskSet, which etcd refuses past 1.5 MiB)`;
}

/** A reply body longer than the caller's own bound (readAll(max)); not Go's: Go reads any length. */
export class BodyTooLargeError extends Error {
  constructor(readonly max: number) {
    super(`response body larger than ${max} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export interface GoResponse {
  status: number;
  /** Go's resp.Status: the status line after the protocol (`500 Kaboom`), as the server wrote it. */
  statusText: string;
  /** Reads up to the end of the first JSON value (json.Decoder); the rest of the body is never read. */
  readFirstValue(): Promise<Buffer>;
  /**
   * io.ReadAll of the body; a BodyTooLargeError past `max` bytes. Without `max`, both reads fail with a
   * non-transient GoHttpError past the request's `maxReplyBytes` (MAX_REPLY_BYTES).
   */
  readAll(max?: number): Promise<Buffer>;
  /** The reply's http.Header: canonical keys, each with its values in order. */
  header: Map<string, string[]>;
  /** Ends the exchange: clears the deadline and drops the connection. */
  close(): void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;
const SENSITIVE = ['authorization', 'www-authenticate', 'cookie', 'cookie2', 'proxy-authorization'];

/** Go's url.Error text: `Post "http://…": <cause>` (the URL quoted as strconv.Quote would). */
const urlError = (method: string, url: string, cause: string): string =>
  `${method[0]!.toUpperCase()}${method.slice(1).toLowerCase()} ${JSON.stringify(url)}: ${cause}`;

/** Go's stripPassword: a URL in an error shows its password as `***`. */
function stripPassword(text: string, url: URL): string {
  if (!url.password) return text;
  return text.replace(`${url.username}:${url.password}@`, `${url.username}:***@`);
}

/** Whether Go keeps Authorization on a redirect from `from` to `to` (same host name, or a subdomain of it). */
export function keepsCredentials(from: URL, to: URL): boolean {
  const a = from.hostname.toLowerCase();
  const b = to.hostname.toLowerCase();
  return a === b || b.endsWith(`.${a}`);
}

/** Go's textproto.CanonicalMIMEHeaderKey: `x-api-key` → `X-Api-Key` (a key with a character Go refuses stays as is). */
export function canonicalHeaderKey(name: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

/** Request headers in Go's http.Header order: each name with its values, sent as one line per value. */
export type GoHeaders = Record<string, string | string[]>;

interface Hop {
  url: URL;
  method: string;
  body?: string | Buffer;
  headers: OutgoingHttpHeaders;
  host?: string;
}

export interface GoRequest {
  method: string;
  url: string;
  body?: string | Buffer;
  headers: GoHeaders;
  /** req.Host: the Host header sent instead of the URL's host (kept on a relative redirect, as Go does). */
  host?: string;
  /** Deadline of the whole exchange; none when undefined (http.DefaultClient). */
  timeoutMs?: number;
  /**
   * How a deadline reads: `client` is http.Client.Timeout (`... (Client.Timeout exceeded while awaiting
   * headers)`), `context` a request context's deadline (`context deadline exceeded`).
   */
  deadline?: 'client' | 'context';
  /** tls.Config.InsecureSkipVerify. */
  insecureSkipVerify?: boolean;
  /**
   * Send `Accept-Encoding: gzip` and decompress a gzip reply (Go's transport does when the caller set no
   * Accept-Encoding); the reply's Content-Encoding and Content-Length are then dropped from its headers.
   */
  transparentGzip?: boolean;
  /** The most of the reply read (decompressed) unless readAll names its own bound; MAX_REPLY_BYTES by default. */
  maxReplyBytes?: number;
  /** Addresses not to connect to, at any hop (not Go's: Argo's agent connects anywhere). */
  blocked?: BlockedNetworks;
  /** Asked once the connection is made, just before the request is written: a reason not to write it. */
  mayWrite?: WriteGuard;
}

/**
 * Whether a request may still go out, asked at the last moment: the caller's right to send it may end while
 * the connection is being made (a replica paused there, or whose shard went meanwhile). A reason refuses it.
 */
export type WriteGuard = () => string | undefined;

/** A request its WriteGuard refused: nothing of it was written. */
class NotWrittenError extends Error {}

/** One POST through Go's http.Client{Timeout} (Argo's plugin RPC). */
export function goPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  maxReplyBytes = MAX_REPLY_BYTES,
  mayWrite?: WriteGuard,
): Promise<GoResponse> {
  return goRequest({
    method: 'POST',
    url,
    body,
    headers,
    timeoutMs,
    deadline: 'client',
    transparentGzip: true,
    maxReplyBytes,
    mayWrite,
  });
}

/** One request through Go's http.Client: redirects, deadline, errors and transparent gzip as Go has them. */
export async function goRequest(request: GoRequest): Promise<GoResponse> {
  const op = request.method;
  const timeoutText =
    request.deadline === 'context'
      ? 'context deadline exceeded'
      : 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
  let onTimeout: (() => void) | undefined;
  let timedOut = false;
  const timer =
    request.timeoutMs === undefined
      ? undefined
      : setLongTimeout(() => {
          timedOut = true;
          onTimeout?.();
        }, request.timeoutMs);
  const close = (res?: IncomingMessage): void => {
    timer?.clear();
    res?.destroy();
  };

  const first = new URL(request.url);
  const headers: OutgoingHttpHeaders = { ...request.headers };
  let hop: Hop = { url: first, method: request.method, body: request.body, headers, host: request.host };
  // Errors name the URL as the caller wrote it (Go's URL.String()); a redirect's as resolved.
  let shown = stripPassword(request.url, first);
  let stripped = false;
  for (let hops = 0; ; hops++) {
    let res: IncomingMessage;
    try {
      res = await send(hop, request, (abort) => {
        onTimeout = () => abort(new Error('timeout'));
      });
    } catch (err) {
      close();
      if (timedOut) throw new GoHttpError(urlError(op, shown, timeoutText), true);
      if (err instanceof NotWrittenError)
        throw new GoHttpError(urlError(op, shown, `not sent: ${err.message}`), false);
      throw networkError(op, shown, err as NodeJS.ErrnoException);
    }
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode ?? 0) || !location)
      return response(
        res,
        request,
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
          op,
          shown,
          `failed to parse Location header ${JSON.stringify(location)}: ${(err as Error).message}`,
        ),
        false,
      );
    }
    if (hops + 1 >= MAX_REDIRECTS) {
      close(res);
      throw new GoHttpError(urlError(op, location, 'stopped after 10 redirects'), false);
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
    // Go keeps a Host override only through a relative Location.
    const relative = !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(location) && !location.startsWith('//');
    shown = stripPassword(next.href, next);
    hop = {
      url: next,
      method: keepBody ? hop.method : hop.method === 'GET' || hop.method === 'HEAD' ? hop.method : 'GET',
      body: keepBody ? hop.body : undefined,
      headers: nextHeaders,
      host: relative ? hop.host : undefined,
    };
  }
}

const BODYLESS_OK = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

function send(
  hop: Hop,
  request: GoRequest,
  setAbort: (abort: (err: Error) => void) => void,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers: OutgoingHttpHeaders = { ...hop.headers };
    const length = hop.body === undefined ? 0 : Buffer.byteLength(hop.body);
    // Go sends Content-Length: 0 for an empty body only where a body is expected (POST, PUT, PATCH).
    if (length > 0 || !BODYLESS_OK.has(hop.method)) headers['Content-Length'] = length;
    if (hop.host !== undefined) headers.Host = hop.host;
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'user-agent'))
      headers['User-Agent'] = 'Go-http-client/1.1';
    if (request.transparentGzip && !Object.keys(headers).some((k) => k.toLowerCase() === 'accept-encoding'))
      headers['Accept-Encoding'] = 'gzip';
    const blocked = request.blocked?.empty === false ? request.blocked : undefined;
    const host = hop.url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(hop.url.port) || (hop.url.protocol === 'https:' ? 443 : 80);
    const refused = blocked && isIP(host) ? blocked.refusal(host) : undefined;
    if (refused) return reject(blockedError(host, port, refused));
    const options = {
      method: hop.method,
      headers,
      agent: false as const,
      ...(blocked && { lookup: blocked.lookup(port) }),
    };
    const req =
      hop.url.protocol === 'https:'
        ? httpsRequest(
            hop.url,
            { ...options, rejectUnauthorized: request.insecureSkipVerify !== true },
            resolve,
          )
        : httpRequest(hop.url, options, resolve);
    setAbort((err) => req.destroy(err));
    req.on('error', reject);
    const write = (): void => {
      const refused = request.mayWrite?.();
      if (refused) req.destroy(new NotWrittenError(refused));
      else req.end(length > 0 ? hop.body : undefined);
    };
    if (!request.mayWrite) return write();
    // Node would write the request itself once connected, however long after this call that is. The socket
    // is a new one (agent: false): its TCP connect, then its TLS handshake, are still to come.
    req.once('socket', (socket) => {
      socket.once(hop.url.protocol === 'https:' ? 'secureConnect' : 'connect', write);
    });
  });
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

/** A connection-level failure before a response, as Go's transport words it (inside the url.Error). */
function networkError(
  op: string,
  url: string,
  err: NodeJS.ErrnoException & { address?: string; port?: number; host?: string },
): GoHttpError {
  const addr = err.address
    ? `${err.address.includes(':') ? `[${err.address}]` : err.address}:${err.port ?? ''}`
    : new URL(url).host;
  const fail = (cause: string, transient: boolean) => new GoHttpError(urlError(op, url, cause), transient);
  if (err.code && UNKNOWN_AUTHORITY.has(err.code))
    return fail('tls: failed to verify certificate: x509: certificate signed by unknown authority', false);
  switch (err.code) {
    case 'EBLOCKEDNET':
      return fail(`dial tcp ${addr}: ${err.message}`, false);
    case 'ECONNREFUSED':
      return fail(`dial tcp ${addr}: connect: connection refused`, true);
    case 'ECONNRESET':
      // A close before any byte of a reply is io.EOF in Go's transport; a reset is a read error.
      return err.message === 'socket hang up'
        ? fail('EOF', true)
        : fail(`read tcp ${addr}: read: connection reset by peer`, true);
    case 'EPIPE':
      return fail(`write tcp ${addr}: write: broken pipe`, true);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail(`dial tcp: lookup ${new URL(url).hostname}: no such host`, true);
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return fail(`tls: failed to verify certificate: x509: ${err.message}`, false);
    case 'CERT_HAS_EXPIRED':
      return fail(
        'tls: failed to verify certificate: x509: certificate has expired or is not yet valid',
        false,
      );
    default:
      if (err.code?.startsWith('HPE_'))
        return fail('net/http: HTTP/1.x transport connection broken: malformed HTTP response', false);
      return fail(err.message, false);
  }
}

/** The reply's header as Go's http.Header holds it: canonical keys, every value in the order received. */
function goHeader(raw: string[]): Map<string, string[]> {
  const header = new Map<string, string[]>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = canonicalHeaderKey(raw[i]!);
    header.set(key, [...(header.get(key) ?? []), raw[i + 1]!]);
  }
  return header;
}

function response(
  res: IncomingMessage,
  request: GoRequest,
  timedOut: () => boolean,
  setOnTimeout: (f: () => void) => void,
  close: (res?: IncomingMessage) => void,
): GoResponse {
  const status = res.statusCode ?? 0;
  const header = goHeader(res.rawHeaders);
  // Go decompresses transparently when it asked for gzip itself, and then hides that it did.
  const askedForGzip =
    request.transparentGzip === true &&
    !Object.keys(request.headers).some((k) => k.toLowerCase() === 'accept-encoding');
  const gzipped = askedForGzip && res.headers['content-encoding']?.toLowerCase() === 'gzip';
  if (gzipped) {
    header.delete('Content-Encoding');
    header.delete('Content-Length');
  }
  const stream: Readable = gzipped ? res.pipe(createGunzip()) : res;
  const maxReplyBytes = request.maxReplyBytes ?? MAX_REPLY_BYTES;
  const read = (
    onChunk: (chunk: Buffer) => boolean,
    atEnd: () => void,
    limit = maxReplyBytes,
    tooLarge: () => Error = () => new GoHttpError(replyTooLarge(limit), false),
  ): Promise<void> =>
    new Promise((resolve, reject) => {
      let settled = false;
      const settle = (err?: Error): void => {
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve();
      };
      const timeoutError = new GoHttpError(
        request.deadline === 'context'
          ? 'context deadline exceeded'
          : 'context deadline exceeded (Client.Timeout or context cancellation while reading body)',
        true,
      );
      if (timedOut()) return settle(timeoutError);
      setOnTimeout(() => {
        settle(timeoutError);
        res.destroy();
      });
      let received = 0;
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) {
          settle(tooLarge());
          res.destroy();
          return;
        }
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
    header,
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
    async readAll(max?: number) {
      const chunks: Buffer[] = [];
      const onChunk = (chunk: Buffer) => (chunks.push(chunk), false);
      if (max === undefined) await read(onChunk, () => undefined);
      else
        await read(
          onChunk,
          () => undefined,
          max,
          () => new BodyTooLargeError(max),
        );
      return Buffer.concat(chunks);
    },
    close: () => close(res),
  };
}
