import { readFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import type { AxiosInstance } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { accessTokenError } from '../access-token-error.js';
import type { AzureCredential, DataFactoryConnection } from './data-factory-settings.js';

/** The scope of an Azure Resource Manager token (its audience is https://management.azure.com). */
export const ARM_SCOPE = 'https://management.azure.com/.default';

/** The TLS agent of a connection's CA (its file, read now, or its PEM), or undefined for the system's CAs. */
export function caAgent(ca: DataFactoryConnection['ca']): HttpsAgent | undefined {
  if (!ca) return undefined;
  return new HttpsAgent({ ca: 'pem' in ca ? ca.pem : readFileSync(ca.file, 'utf8'), keepAlive: true });
}

/** The headers core-rest-pipeline's HttpClient answers with (its HttpHeaders, case-insensitive). */
class ReplyHeaders {
  private readonly map = new Map<string, string>();
  constructor(raw: Record<string, unknown>) {
    for (const [name, value] of Object.entries(raw))
      if (value !== undefined)
        this.map.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
  }
  get(name: string) {
    return this.map.get(name.toLowerCase());
  }
  has(name: string) {
    return this.map.has(name.toLowerCase());
  }
  set(name: string, value: string | number | boolean) {
    this.map.set(name.toLowerCase(), String(value));
  }
  delete(name: string) {
    this.map.delete(name.toLowerCase());
  }
  toJSON() {
    return Object.fromEntries(this.map);
  }
  [Symbol.iterator]() {
    return this.map.entries();
  }
}

interface PipelineRequestLike {
  url: string;
  method: string;
  headers: { toJSON(): Record<string, string> };
  body?: unknown;
  abortSignal?: AbortSignal;
}

/**
 * The HttpClient @azure/identity sends its requests through (authority metadata, token requests): the kit's
 * bounded client (deadline, capped body, no redirects) on the authority host only, so that no token request
 * (with its secret or assertion) goes anywhere else.
 */
function authorityClient(authorityHost: string, timeoutMs: number, ca: DataFactoryConnection['ca']) {
  const http: AxiosInstance = createUpstreamClient({
    upstream: 'dataFactory',
    baseURL: authorityHost,
    timeoutMs,
  });
  http.defaults.httpsAgent = caAgent(ca);
  const origin = new URL(authorityHost).origin;
  return {
    async sendRequest(request: PipelineRequestLike) {
      const url = new URL(request.url);
      if (url.origin !== origin)
        throw new Error(`the token request went to ${url.origin}, not the authority host ${origin}`);
      const reply = await http.request({
        url: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers.toJSON(),
        data: request.body,
        signal: request.abortSignal,
        responseType: 'text',
        transformResponse: [],
        validateStatus: () => true,
      });
      return {
        request,
        status: reply.status,
        headers: new ReplyHeaders(reply.headers as Record<string, unknown>),
        bodyAsText: typeof reply.data === 'string' ? reply.data : JSON.stringify(reply.data),
      };
    },
  };
}

/**
 * Microsoft Entra access tokens for Azure Resource Manager from @azure/identity, loaded on the first request
 * that needs one: ClientSecretCredential for a client secret, WorkloadIdentityCredential for a federated token
 * file (the projected service account token the Azure Workload Identity webhook mounts). The authority's
 * metadata is read from the authority host itself (instance discovery, which always asks the public cloud's
 * host, is disabled); the library's own retries are off, a failure goes to the kit's backoff.
 */
export class AzureAccessTokens {
  private credential?: Promise<{
    getToken(scope: string, options?: object): Promise<{ token: string } | null>;
  }>;

  constructor(
    private readonly authorityHost: string,
    private readonly azure: AzureCredential,
    private readonly timeoutMs: number,
    private readonly ca: DataFactoryConnection['ca'],
  ) {}

  async authorization(signal: AbortSignal): Promise<string> {
    this.credential ??= this.create().catch((err: unknown) => {
      this.credential = undefined;
      throw err;
    });
    let token: { token: string } | null;
    try {
      token = await (await this.credential).getToken(ARM_SCOPE, { abortSignal: signal });
    } catch (err) {
      throw tokenError(err);
    }
    if (!token?.token)
      throw UpstreamError.transient('dataFactory: access token: @azure/identity returned none');
    return `Bearer ${token.token}`;
  }

  private async create() {
    const { ClientSecretCredential, WorkloadIdentityCredential } = await import('@azure/identity');
    const options = {
      authorityHost: this.authorityHost,
      disableInstanceDiscovery: true,
      httpClient: authorityClient(this.authorityHost, this.timeoutMs, this.ca) as never,
      retryOptions: { maxRetries: 0 },
    };
    const { tenantId, clientId } = this.azure;
    return this.azure.kind === 'clientSecret'
      ? new ClientSecretCredential(tenantId, clientId, this.azure.clientSecret, options)
      : new WorkloadIdentityCredential({
          ...options,
          tenantId,
          clientId,
          tokenFilePath: this.azure.tokenFile,
        });
  }
}

/** A failed token request (AADSTS7000215: invalid client secret), with the platform's own sentence. */
function tokenError(err: unknown): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const e = err as {
    statusCode?: unknown;
    message?: unknown;
    errorResponse?: { errorDescription?: unknown };
  };
  const status = typeof e.statusCode === 'number' ? e.statusCode : undefined;
  const said =
    typeof e.errorResponse?.errorDescription === 'string' ? e.errorResponse.errorDescription : e.message;
  const text = typeof said === 'string' ? said : String(err);
  // MSAL wraps the platform's description in its own; the AADSTS code and its sentence are what explain it.
  const platform = /AADSTS\d+: .*?(?= Trace ID:|$)/s.exec(text)?.[0];
  return accessTokenError('dataFactory', err, status, platform ?? text);
}
