import { generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { StandInRequest, StandInResponse } from '@app/local-agent';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A service account key file as Google hands it out (IAM → Keys → Add key → JSON), generated in the test. */
export interface ServiceAccountKeyFile {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

export interface IssuedToken {
  email: string;
  scopes: string[];
  expiresAt: number;
}

/** The token endpoint's error body (RFC 6749 §5.2). */
const oauthError = (error: string, description: string, status = 400): StandInResponse => ({
  status,
  body: { error, error_description: description },
});

const decode = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Google's OAuth 2.0 token endpoint for service accounts (https://developers.google.com/identity/protocols/oauth2/service-account):
 * `POST` form `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`; the JWT is RS256,
 * signed with the account's private key, with `iss` the account's e-mail, `scope`, `aud` the token endpoint,
 * `iat` and `exp` at most an hour apart and around now. Answers `{access_token, expires_in, token_type}`,
 * errors as `{error, error_description}` with 400.
 */
export class GoogleOAuthStandIn {
  private readonly publicKeys = new Map<string, KeyObject>();
  readonly tokens = new Map<string, IssuedToken>();
  /** Token requests answered, good or bad. */
  requests = 0;
  /** The assertion of the latest token request (to check that the client masks it). */
  lastAssertion?: string;
  /** Lifetime of issued tokens; Google's are an hour. */
  tokenSeconds = 3599;

  constructor(private readonly tokenUri: () => string) {}

  /** A new service account (argo-notifier@…, then argo-notifier-2@…) with a fresh RSA key pair: its key file. */
  addServiceAccount(): ServiceAccountKeyFile {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const n = this.publicKeys.size;
    const email = `argo-notifier${n === 0 ? '' : `-${n + 1}`}@argo-demo-project.iam.gserviceaccount.com`;
    this.publicKeys.set(email, publicKey);
    return {
      type: 'service_account',
      project_id: 'argo-demo-project',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: email,
      client_id: String(100000000000000000000n + BigInt(randomBytes(4).readUInt32BE())),
      token_uri: this.tokenUri(),
    };
  }

  /** The account and scopes of a bearer token, when it is one this endpoint issued and it has not expired. */
  holder(authorization: string | undefined): IssuedToken | undefined {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const issued = token ? this.tokens.get(token) : undefined;
    return issued && issued.expiresAt > Date.now() ? issued : undefined;
  }

  token(req: StandInRequest): StandInResponse {
    this.requests++;
    if (!/^application\/x-www-form-urlencoded/.test(String(req.headers['content-type'] ?? '')))
      return oauthError('invalid_request', 'Bad Request');
    const form = new URLSearchParams(req.text);
    const grant = form.get('grant_type');
    if (grant !== JWT_BEARER_GRANT)
      return oauthError('unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
    this.lastAssertion = form.get('assertion') ?? undefined;
    const parts = (this.lastAssertion ?? '').split('.');
    const header = parts.length === 3 ? decode(parts[0]!) : undefined;
    const claims = parts.length === 3 ? decode(parts[1]!) : undefined;
    if (!header || !claims) return oauthError('invalid_grant', 'Invalid JWT: the assertion is not a JWT.');
    if (header.alg !== 'RS256')
      return oauthError('invalid_grant', 'Invalid JWT: the algorithm must be RS256.');
    const email = typeof claims.iss === 'string' ? claims.iss : '';
    const key = this.publicKeys.get(email);
    if (!key) return oauthError('invalid_grant', 'Invalid grant: account not found');
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    if (!verify('sha256', signed, key, Buffer.from(parts[2]!, 'base64url')))
      return oauthError('invalid_grant', 'Invalid JWT Signature.');
    if (claims.aud !== this.tokenUri())
      return oauthError('invalid_grant', 'Invalid JWT: Failed audience check.');
    const now = Date.now() / 1000;
    const { iat, exp } = claims;
    if (
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      exp <= iat ||
      exp - iat > 3600 ||
      iat > now + 300 ||
      exp < now
    )
      return oauthError(
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter((s) => s !== '') : [];
    if (scopes.length === 0)
      return oauthError('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    const accessToken = `ya29.c.${randomBytes(48).toString('base64url')}`;
    this.tokens.set(accessToken, { email, scopes, expiresAt: Date.now() + this.tokenSeconds * 1000 });
    return { body: { access_token: accessToken, expires_in: this.tokenSeconds, token_type: 'Bearer' } };
  }
}
