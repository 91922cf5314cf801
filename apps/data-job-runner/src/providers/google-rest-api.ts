import type { AxiosInstance, AxiosResponse } from 'axios';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { GoogleAccessTokens } from './google-credentials.js';
import type { GoogleProjectConnection } from './google-project.js';
import { isJson } from './upstream-reply.js';

/** Google's error body: `{error: {code, message, status}}`. */
export function describeGoogleError(response: AxiosResponse): string | undefined {
  const e = isJson(response.data) ? response.data.error : undefined;
  if (!isJson(e) || typeof e.message !== 'string') return undefined;
  return typeof e.status === 'string' ? `${e.message} (${e.status})` : e.message;
}

/** A Google REST API through the kit's bounded client, with the connection's access tokens. */
export class GoogleRestApi {
  readonly http: AxiosInstance;
  private readonly tokens: GoogleAccessTokens;

  constructor(upstream: string, connection: GoogleProjectConnection, timeoutMs: number) {
    this.tokens = new GoogleAccessTokens(upstream, connection.credentials, timeoutMs);
    this.http = createUpstreamClient({
      upstream,
      baseURL: connection.url,
      headers: { Accept: 'application/json' },
      timeoutMs,
      describe: describeGoogleError,
    });
  }

  /** Request options: the abort signal and a current bearer token. */
  async auth(signal: AbortSignal): Promise<{ signal: AbortSignal; headers: { Authorization: string } }> {
    return { signal, headers: { Authorization: await this.tokens.authorization() } };
  }
}
