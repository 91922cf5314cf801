import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Injectable } from '@nestjs/common';
import type { AxiosInstance } from 'axios';
import { parseDuration } from '@app/contract';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { ArgoEnv } from '../config/argo.env.js';
import type { EventHeaders } from '../dto/event-headers.js';

export interface OutgoingEvent {
  namespace: string;
  discriminator: string;
  payload: Record<string, unknown>;
  headers: EventHeaders;
}

export interface ServerReply {
  status: number;
  /** The parsed JSON body (`{}` or `{"code","message"}`), or the text. */
  data: unknown;
  retryAfter?: string;
  /** The path that was called (for messages; never the credentials). */
  path: string;
}

/**
 * POST /api/v1/events/{namespace}/{discriminator} on the admin's Argo Server. Paths are relative to the
 * configured base URL (absolute URLs are refused by the client, so the token only ever goes to that server);
 * TLS trusts ARGO_CA_FILE or, with ARGO_INSECURE_SKIP_VERIFY, anything. Network errors and timeouts become
 * transient UpstreamErrors; every HTTP status is returned for the caller to judge.
 */
@Injectable()
export class ArgoEventClient {
  private readonly client: AxiosInstance;
  /** The ARGO_BASE_HREF part of the URL, for messages. */
  private readonly basePath: string;

  constructor(env: ArgoEnv) {
    this.basePath = new URL(env.baseUrl).pathname.replace(/\/$/, '');
    this.client = createUpstreamClient({
      upstream: 'argo-server',
      baseURL: env.baseUrl,
      headers: { Authorization: `${env.authScheme} ${env.ARGO_TOKEN}` },
      timeoutMs: parseDuration(env.ARGO_REQUEST_TIMEOUT),
    });
    if (env.ARGO_SECURE)
      this.client.defaults.httpsAgent = new HttpsAgent({
        keepAlive: true,
        ca: env.ca,
        rejectUnauthorized: !env.ARGO_INSECURE_SKIP_VERIFY,
      });
    else this.client.defaults.httpAgent = new HttpAgent({ keepAlive: true });
  }

  async send(event: OutgoingEvent, signal?: AbortSignal): Promise<ServerReply> {
    // The trailing slash of an empty discriminator is required: without it the path has 4 segments (501).
    const path = `/api/v1/events/${encodeURIComponent(event.namespace)}/${encodeURIComponent(event.discriminator)}`;
    const res = await this.client
      .post(path, event.payload, {
        headers: { 'Content-Type': 'application/json', ...event.headers },
        validateStatus: () => true,
        responseType: 'text',
        transformResponse: [(text: unknown) => text],
        signal,
      })
      .catch((err: unknown) => {
        throw tlsProblem(err) ?? err;
      });
    const text = typeof res.data === 'string' ? res.data : '';
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // not JSON: an HTML page from a proxy, plain text...
    }
    const retryAfter = res.headers['retry-after'] as string | undefined;
    return { status: res.status, data, path: this.basePath + path, ...(retryAfter && { retryAfter }) };
  }
}

/** A certificate the client does not trust is a configuration problem: fail with a hint instead of retrying. */
function tlsProblem(err: unknown): UpstreamError | undefined {
  const code = (err as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code !== 'string' || !/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|HOSTNAME|ALTNAME/.test(code))
    return undefined;
  return UpstreamError.permanent(
    `${(err as Error).message} (the server's TLS certificate is not trusted: set ARGO_CA_FILE or ARGO_CA_CERT to its CA, or ARGO_INSECURE_SKIP_VERIFY=true for a test server)`,
    { cause: err },
  );
}
