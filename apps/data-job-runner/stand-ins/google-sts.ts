import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { StandInRequest, StandInResponse } from '@app/local-agent';
import { googleError, type GoogleTokenEndpoint } from './google-token.js';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';

/** A workload identity pool provider (OIDC) and the service accounts its principals may impersonate. */
export interface GoogleFederationSpec {
  /** `//iam.googleapis.com/projects/<number>/locations/global/workloadIdentityPools/<pool>/providers/<provider>`. */
  audience: string;
  /** The OIDC issuer whose tokens the provider accepts (a cluster's service account issuer), and its key. */
  issuer: string;
  publicKey: KeyObject | string;
  /** Service accounts the pool's principals hold `roles/iam.workloadIdentityUser` on. */
  impersonable: string[];
}

const decode = (part: string | undefined): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};
const stsError = (description: string, error = 'invalid_grant'): StandInResponse => ({
  status: 400,
  body: { error, error_description: description },
});

/**
 * Google's Security Token Service (`sts.googleapis.com/v1/token`, RFC 8693 token exchange) for one workload
 * identity pool provider: the subject token is an OIDC JWT whose RS256 signature is checked with the issuer's
 * key, `iss` the provider's issuer, `aud` the provider's default audience (`https:` + the pool audience), not
 * expired. It issues federated access tokens, and IAM Credentials' `generateAccessToken` trades one for a
 * service account's access token when the principal may impersonate it. Both kinds of token go into the
 * Google token endpoint's issued tokens, which the API stand-ins accept.
 */
export class GoogleStsEndpoint {
  private readonly key: KeyObject;
  /** Federated tokens, by token: the principal they stand for. */
  readonly federated = new Map<string, { principal: string; expires: number }>();
  readonly subjectTokens: string[] = [];

  constructor(
    private readonly spec: GoogleFederationSpec,
    private readonly tokens: GoogleTokenEndpoint,
  ) {
    this.key = typeof spec.publicKey === 'string' ? createPublicKey(spec.publicKey) : spec.publicKey;
  }

  exchange(req: StandInRequest): StandInResponse {
    const form = (req.body ?? {}) as Record<string, string>;
    if (form.grant_type !== TOKEN_EXCHANGE) return stsError('Invalid grant_type.', 'unsupported_grant_type');
    if (form.requested_token_type !== ACCESS_TOKEN_TYPE)
      return stsError('Invalid requested_token_type.', 'invalid_request');
    if (form.subject_token_type !== JWT_TOKEN_TYPE)
      return stsError('Invalid subject_token_type.', 'invalid_request');
    if (form.audience !== this.spec.audience)
      return stsError(
        `Invalid value for "audience". The pool or provider of ${form.audience} does not exist.`,
        'invalid_target',
      );
    if (!form.scope?.split(' ').includes(CLOUD_PLATFORM)) return stsError('Invalid scope.', 'invalid_scope');
    const token = form.subject_token ?? '';
    this.subjectTokens.push(token);
    const [h, c, sig] = token.split('.');
    const header = decode(h);
    const claims = decode(c);
    if (header?.alg !== 'RS256' || !claims || !sig) return stsError('Unable to parse the ID Token.');
    if (!verify('sha256', Buffer.from(`${h}.${c}`), this.key, Buffer.from(sig, 'base64url')))
      return stsError('Invalid JWT Signature.');
    if (claims.iss !== this.spec.issuer)
      return stsError(`The issuer in ID Token ${String(claims.iss)} does not match the expected ones.`);
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audiences.includes(`https:${this.spec.audience}`))
      return stsError('The audience in ID Token does not match the expected audience.');
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now())
      return stsError('The ID Token is expired.');
    const pool = this.spec.audience
      .replace(/^\/\/iam\.googleapis\.com\//, '')
      .replace(/\/providers\/[^/]+$/, '');
    const access = `ya29.d.${randomBytes(32).toString('base64url')}`;
    const expires = Date.now() + 3599_000;
    this.federated.set(access, {
      principal: `principal://iam.googleapis.com/${pool}/subject/${String(claims.sub)}`,
      expires,
    });
    this.tokens.issued.set(access, {
      scope: CLOUD_PLATFORM,
      email: `${pool}/subject/${String(claims.sub)}`,
      expires,
    });
    return {
      body: {
        access_token: access,
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: 'Bearer',
        expires_in: 3599,
      },
    };
  }

  /** `POST /v1/projects/-/serviceAccounts/<email>:generateAccessToken`, with a federated token. */
  generateAccessToken(req: StandInRequest): StandInResponse {
    const match = /^(.+):generateAccessToken$/.exec(req.params.account ?? '');
    if (!match) return googleError(404, 'Method not found.', 'NOT_FOUND');
    const email = match[1]!;
    const header = req.headers.authorization;
    const caller =
      typeof header === 'string' && header.startsWith('Bearer ')
        ? this.federated.get(header.slice(7))
        : undefined;
    if (!caller || caller.expires <= Date.now())
      return googleError(
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        'UNAUTHENTICATED',
      );
    if (!this.spec.impersonable.includes(email))
      return googleError(
        403,
        `Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).`,
        'PERMISSION_DENIED',
      );
    const body = (req.body ?? {}) as { scope?: unknown; lifetime?: unknown };
    const scopes = Array.isArray(body.scope) ? body.scope.map(String) : [];
    if (scopes.length === 0) return googleError(400, 'Scope required.', 'INVALID_ARGUMENT');
    const lifetime = typeof body.lifetime === 'string' ? Number(body.lifetime.replace(/s$/, '')) : 3600;
    if (!Number.isFinite(lifetime) || lifetime <= 0 || lifetime > 3600)
      return googleError(400, 'The lifetime must be between 1s and 3600s.', 'INVALID_ARGUMENT');
    const access = `ya29.c.${randomBytes(32).toString('base64url')}`;
    const expires = Date.now() + lifetime * 1000;
    this.tokens.issued.set(access, { scope: scopes.join(' '), email, expires });
    return { body: { accessToken: access, expireTime: new Date(expires).toISOString() } };
  }
}
