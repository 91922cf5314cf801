import { sign } from 'node:crypto';
import type { AxiosInstance } from 'axios';
import { UpstreamError, type Redactor } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { withHint } from '../../shared/upstream-hints.js';
import type { GoogleServiceAccount } from './service-account.js';
import { replyFields } from '../../shared/reply-fields.js';

/** The scope a Chat app acts with (app authentication). */
export const CHAT_BOT_SCOPE = 'https://www.googleapis.com/auth/chat.bot';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google accepts assertions valid for at most one hour. */
const ASSERTION_SECONDS = 3600;
/** A cached token is renewed this long before it expires, so no request carries one that is about to. */
const RENEW_BEFORE_MS = 5 * 60_000;

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * The signed JWT a service account exchanges for an access token (RFC 7523): RS256, `iss` the account's
 * e-mail, `scope`, `aud` the token endpoint, issued now and valid for an hour.
 */
export function signAssertion(account: GoogleServiceAccount, scope: string, nowSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.keyId && { kid: account.keyId }) };
  const claims = {
    iss: account.clientEmail,
    scope,
    aud: account.tokenUri,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_SECONDS,
  };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${sign('sha256', Buffer.from(input), account.privateKey).toString('base64url')}`;
}

/** The token endpoint's error body: `{error, error_description}`. */
function describe(data: unknown): string | undefined {
  const e = data as { error?: unknown; error_description?: unknown } | undefined;
  if (typeof e?.error !== 'string') return undefined;
  return typeof e.error_description === 'string' ? `${e.error_description} (${e.error})` : e.error;
}

interface TokenReply {
  access_token?: unknown;
  expires_in?: unknown;
}

/**
 * Access tokens of one service account, from its key's token endpoint: cached until shortly before they
 * expire, one request at a time however many calls wait for a token. Each assertion and token is registered
 * with the redactor before it is sent anywhere.
 */
export class ServiceAccountTokens {
  private readonly http: AxiosInstance;
  private readonly path: string;
  private cached?: { token: string; renewAt: number };
  private pending?: Promise<string>;

  constructor(
    private readonly account: GoogleServiceAccount,
    private readonly scope: string,
    private readonly redactor: Redactor,
    timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {
    const endpoint = new URL(account.tokenUri);
    this.path = `${endpoint.pathname}${endpoint.search}`;
    this.http = createUpstreamClient({
      upstream: 'google oauth',
      baseURL: endpoint.origin,
      timeoutMs,
      describe: (response) => describe(response.data),
    });
  }

  async token(): Promise<string> {
    if (this.cached && this.now() < this.cached.renewAt) return this.cached.token;
    this.pending ??= this.fetch().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Forgets the cached token (the API refused it: revoked, or the key was disabled). */
  forget(): void {
    this.cached = undefined;
  }

  private async fetch(): Promise<string> {
    const assertion = signAssertion(this.account, this.scope, Math.floor(this.now() / 1000));
    this.redactor.add(assertion);
    const form = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion });
    let data: TokenReply;
    try {
      data = (
        await this.http.post<TokenReply>(this.path, form.toString(), {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        })
      ).data;
    } catch (err) {
      throw withHint(err, {
        400: `the token endpoint refused the service account key of ${this.account.clientEmail} (a deleted or disabled key, or the wrong file); the admin checks GOOGLE_CHAT_SERVICE_ACCOUNT_JSON`,
        401: `the token endpoint refused the service account ${this.account.clientEmail}; the admin checks GOOGLE_CHAT_SERVICE_ACCOUNT_JSON`,
      });
    }
    const { access_token: token, expires_in: seconds } = replyFields('google oauth', 'POST /token', data, {
      access_token: 'string',
      expires_in: 'number',
    });
    if (seconds <= 0) throw UpstreamError.permanent('google oauth: POST /token: no expires_in in the reply');
    this.redactor.add(token);
    this.cached = { token, renewAt: this.now() + Math.max(0, seconds * 1000 - RENEW_BEFORE_MS) };
    return token;
  }
}
