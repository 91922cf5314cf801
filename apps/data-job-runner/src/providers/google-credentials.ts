import { createPrivateKey } from 'node:crypto';
import type { UpstreamError } from '@app/plugin-kit';
import { capResponseBody } from '@app/plugin-kit/upstream/capped-fetch.js';
import { accessTokenError } from './access-token-error.js';

/** The Google token endpoint google-auth-library posts a service account's assertion to, whatever the key says. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** A service-account key or an external-account (Workload Identity Federation) configuration, checked at start. */
export interface GoogleCredentials {
  json: Record<string, unknown>;
  type: 'service_account' | 'external_account';
  /** The key's `token_uri`: where the assertion is exchanged (Google's endpoint in every key Google issues). */
  tokenUri?: string;
  /** The service account's private key, masked in every form it could be echoed in. */
  privateKey?: string;
}

const isHttpUrl = (v: unknown): boolean => typeof v === 'string' && /^https?:\/\/[^\s/]+/.test(v);

/** The credentials in `text` (the JSON Google issues), or a problem naming the field, never a value. */
export function readGoogleCredentials(
  variable: string,
  text: string,
  problems: string[],
): GoogleCredentials | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    problems.push(
      `${variable}: must be the JSON of a service-account key or an external-account configuration`,
    );
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    problems.push(`${variable}: must be a JSON object`);
    return undefined;
  }
  const j = json as Record<string, unknown>;
  const missing = (fields: string[]) => fields.filter((f) => typeof j[f] !== 'string' || j[f] === '');
  if (j.type === 'service_account') {
    const absent = missing(['client_email', 'private_key']);
    if (absent.length > 0) {
      problems.push(`${variable}: a service-account key needs ${absent.join(' and ')}`);
      return undefined;
    }
    try {
      createPrivateKey(j.private_key as string);
    } catch {
      problems.push(`${variable}: private_key must be a PEM private key`);
      return undefined;
    }
    if (j.token_uri !== undefined && !isHttpUrl(j.token_uri)) {
      problems.push(`${variable}: token_uri must be an http(s) URL (${GOOGLE_TOKEN_URL})`);
      return undefined;
    }
    return {
      json: j,
      type: 'service_account',
      tokenUri: (j.token_uri as string | undefined) ?? GOOGLE_TOKEN_URL,
      privateKey: j.private_key as string,
    };
  }
  if (j.type === 'external_account') {
    const absent = missing(['audience', 'subject_token_type', 'token_url']);
    if (absent.length > 0 || typeof j.credential_source !== 'object' || j.credential_source === null) {
      problems.push(
        `${variable}: an external-account configuration needs ${[...absent, 'credential_source'].join(', ')}`,
      );
      return undefined;
    }
    const source = j.credential_source as Record<string, unknown>;
    if (typeof source.file !== 'string' && typeof source.url !== 'string') {
      problems.push(
        `${variable}: credential_source must name a file (the projected service account token) or a url`,
      );
      return undefined;
    }
    return { json: j, type: 'external_account' };
  }
  problems.push(`${variable}: type must be service_account or external_account`);
  return undefined;
}

/**
 * Access tokens from google-auth-library, loaded on the first request that needs one. Its requests (the token
 * exchange, STS, impersonation) go through a fetch with the sidecar's bounds: a deadline, no redirects, a
 * capped body; and a service account's assertion goes to its key's `token_uri` (the library always posts it
 * to Google's endpoint).
 */
export class GoogleAccessTokens {
  private client?: Promise<{ getRequestHeaders(): Promise<Headers> }>;

  constructor(
    private readonly upstream: string,
    private readonly credentials: GoogleCredentials,
    private readonly timeoutMs: number,
  ) {}

  async authorization(): Promise<string> {
    this.client ??= this.createClient().catch((err: unknown) => {
      this.client = undefined;
      throw err;
    });
    let headers: Headers;
    try {
      headers = await (await this.client).getRequestHeaders();
    } catch (err) {
      throw tokenError(this.upstream, err);
    }
    const value = headers.get('authorization');
    if (!value) throw new Error('google-auth-library returned no Authorization header');
    return value;
  }

  private async createClient() {
    // A CommonJS package: Node and the bundle both give its exports as the namespace's `default`.
    const loaded = (await import('google-auth-library')) as typeof import('google-auth-library') & {
      default?: typeof import('google-auth-library');
    };
    const { IdentityPoolClient, JWT } = loaded.default ?? loaded;
    const { tokenUri } = this.credentials;
    const timeoutMs = this.timeoutMs;
    const boundedFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
      const url = input instanceof Request ? input.url : String(input);
      const target = tokenUri !== undefined && url === GOOGLE_TOKEN_URL ? tokenUri : url;
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
      return capResponseBody(await fetch(target, { ...init, signal, redirect: 'manual' }));
    };
    const transporterOptions = { fetchImplementation: boundedFetch as typeof fetch };
    const j = this.credentials.json;
    // The clients are made from fields checked at start, not through fromJSON (which loads any client type).
    const client =
      this.credentials.type === 'service_account'
        ? new JWT({
            email: j.client_email as string,
            key: j.private_key as string,
            keyId: j.private_key_id as string | undefined,
            scopes: [CLOUD_PLATFORM_SCOPE],
            transporterOptions,
          })
        : new IdentityPoolClient({ ...j, scopes: [CLOUD_PLATFORM_SCOPE], transporterOptions } as never);
    // The token request asks the library for its own retries; a failure goes to the kit's backoff instead.
    client.transporter.interceptors.request.add({
      resolved: async (config) => ({
        ...config,
        retry: false,
        retryConfig: { ...config.retryConfig, retry: 0, noResponseRetries: 0 },
      }),
    });
    return client;
  }
}

/** A failed token request, with the status the library saw (gaxios: `status` or `response.status`). */
function tokenError(upstream: string, err: unknown): UpstreamError {
  const e = err as { status?: unknown; response?: { status?: unknown }; message?: unknown };
  const status =
    typeof e.status === 'number'
      ? e.status
      : typeof e.response?.status === 'number'
        ? e.response.status
        : undefined;
  return accessTokenError(upstream, err, status, typeof e.message === 'string' ? e.message : String(err));
}
