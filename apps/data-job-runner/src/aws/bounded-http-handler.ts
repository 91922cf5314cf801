import { capResponseBody } from '@app/plugin-kit/upstream/capped-fetch.js';

/** The request the AWS SDK hands its HTTP handler, signed (the fields this handler reads). */
export interface SignedRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | Array<string | null> | null>;
  headers: Record<string, string>;
  body?: unknown;
}

/** What the SDK's deserializers read from a reply: the whole body, already bounded. */
export interface BoundedResponse {
  statusCode: number;
  reason?: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Headers fetch sets itself from the URL and the body (the signed values are the same). */
const SET_BY_FETCH = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'expect']);

const escape = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryString(query: SignedRequest['query'] = {}): string {
  return Object.keys(query)
    .sort()
    .flatMap((key) => {
      const value = query[key];
      const values = Array.isArray(value) ? value : [value];
      return values.map((v) => (v === null || v === undefined ? escape(key) : `${escape(key)}=${escape(v)}`));
    })
    .join('&');
}

/**
 * The AWS SDK's HTTP handler for the data-job runner: every reply read within UPSTREAM_MAX_BODY and the JSON
 * bounds (the kit's capped fetch), every attempt within UPSTREAM_TIMEOUT, the call's signal obeyed. The SDK
 * keeps its own signing, retries and parsing.
 */
export class BoundedHttpHandler {
  readonly metadata = { handlerProtocol: 'http/1.1' };

  constructor(private readonly timeoutMs: number) {}

  async handle(
    request: SignedRequest,
    { abortSignal }: { abortSignal?: unknown } = {},
  ): Promise<{ response: BoundedResponse }> {
    const query = queryString(request.query);
    const port = request.port ? `:${request.port}` : '';
    const url = `${request.protocol}//${request.hostname}${port}${request.path}${query ? `?${query}` : ''}`;
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !SET_BY_FETCH.has(name.toLowerCase())),
    );
    const signal = AbortSignal.any(
      [AbortSignal.timeout(this.timeoutMs), abortSignal].filter((s) => s instanceof AbortSignal),
    );
    const reply = await fetch(url, {
      method: request.method,
      headers,
      body: request.body as RequestInit['body'],
      signal,
      redirect: 'manual',
    });
    const capped = capResponseBody(reply);
    const body = new Uint8Array(await capped.arrayBuffer());
    return {
      response: {
        statusCode: reply.status,
        reason: reply.statusText,
        headers: Object.fromEntries(reply.headers),
        body,
      },
    };
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {}
}
