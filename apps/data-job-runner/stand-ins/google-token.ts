import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { StandInRequest, StandInResponse } from '@app/local-agent';

/** The audience Google's token endpoint requires of a service account's assertion. */
export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface ServiceAccountSpec {
  clientEmail: string;
  /** The key's id (`private_key_id`, the assertion's `kid`) and its public half. */
  keyId: string;
  publicKey: KeyObject | string;
}

const decode = (part: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

const grantError = (description: string, error = 'invalid_grant'): StandInResponse => ({
  status: 400,
  body: { error, error_description: description },
});

/**
 * Google's OAuth 2.0 token endpoint for service accounts (RFC 7523 JWT bearer grant): the assertion must be
 * RS256, signed by a key registered for `iss`, `aud` the token endpoint, a scope, at most an hour long and
 * current. Issues `ya29.` access tokens, which the API stand-ins accept until they expire.
 */
export class GoogleTokenEndpoint {
  readonly issued = new Map<string, { scope: string; email: string; expires: number }>();
  private readonly accounts: Array<ServiceAccountSpec & { key: KeyObject }>;

  constructor(
    accounts: ServiceAccountSpec[],
    private readonly lifetimeS = 3599,
  ) {
    this.accounts = accounts.map((a) => ({
      ...a,
      key: typeof a.publicKey === 'string' ? createPublicKey(a.publicKey) : a.publicKey,
    }));
  }

  token(req: StandInRequest): StandInResponse {
    const form = req.body as Record<string, string> | undefined;
    if (form?.grant_type !== JWT_BEARER) return grantError('Invalid grant_type', 'unsupported_grant_type');
    const parts = String(form.assertion ?? '').split('.');
    const [h, c, sig] = parts;
    const header = h ? decode(h) : undefined;
    const claims = c ? decode(c) : undefined;
    if (parts.length !== 3 || header?.alg !== 'RS256' || !claims) return grantError('Invalid JWT.');
    const account = this.accounts.find((a) => a.clientEmail === claims.iss);
    if (!account) return grantError('Invalid JWT Signature.');
    if (header.kid !== undefined && header.kid !== account.keyId) return grantError('Invalid JWT Signature.');
    if (!verify('sha256', Buffer.from(`${h}.${c}`), account.key, Buffer.from(sig!, 'base64url')))
      return grantError('Invalid JWT Signature.');
    if (claims.aud !== GOOGLE_TOKEN_AUDIENCE)
      return grantError('Invalid JWT: the audience is not the token endpoint.');
    const now = Math.floor(Date.now() / 1000);
    if (
      typeof claims.iat !== 'number' ||
      typeof claims.exp !== 'number' ||
      claims.exp <= now ||
      claims.exp - claims.iat > 3600 ||
      claims.iat > now + 300
    )
      return grantError(
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    if (typeof claims.scope !== 'string' || claims.scope === '')
      return grantError('Invalid OAuth scope or ID token audience provided.', 'invalid_scope');
    const token = `ya29.${randomBytes(32).toString('base64url')}`;
    this.issued.set(token, {
      scope: claims.scope,
      email: account.clientEmail,
      expires: Date.now() + this.lifetimeS * 1000,
    });
    return { body: { access_token: token, expires_in: this.lifetimeS, token_type: 'Bearer' } };
  }

  /** The 401 Google APIs answer, or undefined when the request carries a current token with `scope`. */
  refuse(req: StandInRequest, scope: string): StandInResponse | undefined {
    const header = req.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
    const issued = token === undefined ? undefined : this.issued.get(token);
    if (issued && issued.expires > Date.now()) {
      if (issued.scope.split(' ').includes(scope)) return undefined;
      return googleError(403, 'Request had insufficient authentication scopes.', 'PERMISSION_DENIED');
    }
    return googleError(
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      'UNAUTHENTICATED',
    );
  }
}

/** Google's error body. */
export function googleError(code: number, message: string, status: string): StandInResponse {
  return { status: code, body: { error: { code, message, status } } };
}
