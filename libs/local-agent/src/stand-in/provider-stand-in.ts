import { randomBytes } from 'node:crypto';
import type { Fault } from './faults.js';
import type { StandInRequest } from './stand-in-request.js';
import { StandInServer, type RouteHandler, type StandInResponse } from './stand-in-server.js';

/**
 * How a stand-in misbehaves on purpose, for the hostile-upstream suites:
 * - `echo`: every call fails with `status`, and the error body repeats the request's headers and body (an
 *   upstream that reflects the credential it was sent);
 * - `huge`: every call answers `status` with a body of `bytes` bytes;
 * - `empty`: every call answers `status` (200) with `body` (`{}`): a reply without the fields the plugin needs.
 */
export type HostileMode =
  | { mode: 'echo'; status?: number }
  | { mode: 'huge'; status?: number; bytes?: number }
  | { mode: 'empty'; status?: number; body?: object };

/**
 * The base of every plugin's HTTP stand-in of a provider (`apps/<app>/stand-ins/<provider>/`): routes wrapped by
 * the hostile modes, and scripted 429s and 5xx.
 */
export class ProviderStandIn {
  readonly server: StandInServer;
  hostile?: HostileMode;

  /** `notFound` answers a call no route takes; without it, the stand-in's `noRoute` method does. */
  constructor(name: string, notFound?: (req: StandInRequest) => StandInResponse) {
    this.server = new StandInServer(name, notFound ?? ((req) => this.noRoute(req)));
  }

  /** The reply to a call no route takes, when the constructor was given none. */
  protected noRoute(_req: StandInRequest): StandInResponse {
    return { status: 404, body: { message: 'Not Found' } };
  }

  get url(): string {
    return this.server.url;
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  protected route(method: string, path: string | RegExp, handler: RouteHandler): this {
    this.server.route(method, path, (req) => this.hostileReply(req) ?? handler(req));
    return this;
  }

  /**
   * The next `times` calls matching `path` (a prefix), `method` and `also` (when given) get 429 with Retry-After
   * and `body`.
   */
  rateLimitRoute(
    method: string,
    path: string,
    retryAfterSeconds: number,
    body: unknown,
    times = 1,
    also: (req: StandInRequest) => boolean = () => true,
  ): void {
    const fault: Fault = { kind: 'rate-limit', retryAfterSeconds, body };
    this.server.faults.add(fault, {
      times,
      match: (r) => r.method === method && r.path.startsWith(path) && also(r),
    });
  }

  /** The next `times` calls matching `path` (a prefix) and `method` get this status with an HTML page. */
  httpErrorRoute(method: string, path: string, status: number, times = 1): void {
    this.server.faults.add(
      {
        kind: 'status',
        status,
        body: `<html><body><h1>${status} upstream error</h1></body></html>`,
        headers: { 'Content-Type': 'text/html' },
      },
      { times, match: (r) => r.method === method && r.path.startsWith(path) },
    );
  }

  private hostileReply(req: StandInRequest): StandInResponse | undefined {
    const hostile = this.hostile;
    if (!hostile) return undefined;
    if (hostile.mode === 'echo')
      return {
        status: hostile.status ?? 400,
        body: {
          message: `bad request ${JSON.stringify({ url: req.path, query: Object.fromEntries(req.query), headers: req.headers, body: req.text })}`,
        },
      };
    if (hostile.mode === 'empty') return { status: hostile.status ?? 200, body: hostile.body ?? {} };
    return {
      status: hostile.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
      body: `{"padding":"${'x'.repeat(hostile.bytes ?? 8 * 1024 * 1024)}"}`,
    };
  }
}

/** A random ID of `length` lower-case letters and digits (Mattermost's 26-character IDs). */
export function randomId(length = 26): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
}

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  content: string;
}

/** The parts of a multipart/form-data body (text content), or undefined when the body is not multipart. */
export function multipartParts(req: StandInRequest): MultipartPart[] | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(String(req.headers['content-type'] ?? ''));
  if (!boundary) return undefined;
  const marker = `--${boundary[1] ?? boundary[2]}`;
  const parts: MultipartPart[] = [];
  for (const raw of req.text.split(marker)) {
    const split = raw.indexOf('\r\n\r\n');
    if (split < 0 || raw.startsWith('--')) continue;
    const head = raw.slice(0, split);
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    const name = /\bname="([^"]*)"/.exec(disposition)?.[1];
    if (name === undefined) continue;
    parts.push({
      name,
      filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
      contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1],
      content: raw.slice(split + 4).replace(/\r\n$/, ''),
    });
  }
  return parts;
}
