import { createPublicKey, generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderStandIn, standInCertificate } from '@app/local-agent';
import type { StandInRequest, StandInResponse } from '@app/local-agent';

/** Beside the sources in tests; from the repository root when bundled (npm run demo). */
const DATA = [
  join(import.meta.dirname, '../../test/data'),
  join(process.cwd(), 'apps/data-job-runner/test/data'),
].find((dir) => existsSync(join(dir, 'entra-localhost.key')))!;
/** The loopback test certificate the authority serves (Microsoft's libraries speak to an https authority only). */
export const ENTRA_TEST_CERT = join(DATA, 'entra-localhost.crt');

/** The audience a Kubernetes service account token is issued for, for Microsoft Entra workload identity. */
export const FEDERATED_AUDIENCE = 'api://AzureADTokenExchange';
export const ARM_AUDIENCE = 'https://management.azure.com';

/** An app registration (or managed identity) of the tenant, with its client secret and federated credentials. */
export interface EntraApp {
  clientId: string;
  clientSecret?: string;
  /** Federated identity credentials: the issuer and subject of an accepted assertion, and the issuer's key. */
  federated?: Array<{ issuer: string; subject: string; publicKey: string | KeyObject }>;
}

export interface EntraTokenStandInOptions {
  tenantId: string;
  apps: EntraApp[];
}

const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
const json = (s: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(Buffer.from(s, 'base64url').toString());
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

/** An RS256 JWT's claims when `key` verified its signature, else undefined. */
export function verifiedClaims(token: string, key: KeyObject): Record<string, unknown> | undefined {
  const [header, claims, signature] = token.split('.');
  if (!header || !claims || !signature || json(header)?.alg !== 'RS256') return undefined;
  const ok = verify('sha256', Buffer.from(`${header}.${claims}`), key, Buffer.from(signature, 'base64url'));
  return ok ? json(claims) : undefined;
}

/** An RS256 JWT of `claims` signed with `key`. */
export function signJwt(claims: Record<string, unknown>, key: KeyObject, kid?: string): string {
  const body = `${part({ alg: 'RS256', typ: 'JWT', ...(kid && { kid }) })}.${part(claims)}`;
  return `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`;
}

/**
 * The Microsoft identity platform's v2.0 endpoints of one tenant, over HTTPS: the OpenID configuration
 * (`/<tenant>/v2.0/.well-known/openid-configuration`, what MSAL reads for the authority's metadata) and the
 * token endpoint's client-credentials grant (`/<tenant>/oauth2/v2.0/token`) with a client secret or a client
 * assertion (a federated token: RS256 signature checked with the issuer's key, `iss`/`sub` matched against a
 * federated credential, `aud` api://AzureADTokenExchange, expiry). It issues RS256 access tokens for
 * `https://management.azure.com/.default` (audience https://management.azure.com, issuer
 * `https://sts.windows.net/<tenant>/`), which `checkBearer` verifies. Errors are the platform's bodies
 * (`error`, `error_description` with its AADSTS code, `error_codes`).
 */
export class EntraTokenStandIn extends ProviderStandIn {
  private readonly signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  readonly issued = new Set<string>();

  constructor(private readonly options: EntraTokenStandInOptions) {
    super('entra');
    const tls = standInCertificate();
    this.server.tls = {
      key: readFileSync(tls?.keyFile ?? join(DATA, 'entra-localhost.key'), 'utf8'),
      cert: readFileSync(tls?.certFile ?? ENTRA_TEST_CERT, 'utf8'),
    };
    this.route('GET', '/:tenant/v2.0/.well-known/openid-configuration', (req) => this.metadata(req)).route(
      'POST',
      '/:tenant/oauth2/v2.0/token',
      (req) => this.token(req),
    );
  }

  /** The CA file a client trusts this authority's certificate through. */
  get caFile(): string {
    return standInCertificate()?.caFile ?? ENTRA_TEST_CERT;
  }

  get tenantId(): string {
    return this.options.tenantId;
  }

  get issuer(): string {
    return `https://sts.windows.net/${this.options.tenantId}/`;
  }

  /** Why an `Authorization` header is refused for Azure Resource Manager, or undefined for a valid token. */
  checkBearer(
    authorization: string | undefined,
  ): 'missing' | 'invalid' | 'audience' | 'issuer' | 'expired' | undefined {
    if (!authorization?.startsWith('Bearer ')) return 'missing';
    const claims = verifiedClaims(authorization.slice('Bearer '.length), this.signing.publicKey);
    if (!claims) return 'invalid';
    if (claims.aud !== ARM_AUDIENCE) return 'audience';
    if (claims.iss !== this.issuer) return 'issuer';
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return 'expired';
    return undefined;
  }

  protected override noRoute(req: StandInRequest): StandInResponse {
    return { status: 404, body: { error: 'not_found', error_description: `${req.path} is not an endpoint` } };
  }

  private metadata(req: StandInRequest): StandInResponse {
    const tenant = req.params.tenant;
    if (tenant !== this.options.tenantId)
      return this.error(400, 'invalid_tenant', 90002, `Tenant '${tenant}' not found.`);
    const base = `${this.url}/${tenant}`;
    return {
      body: {
        token_endpoint: `${base}/oauth2/v2.0/token`,
        token_endpoint_auth_methods_supported: [
          'client_secret_post',
          'private_key_jwt',
          'client_secret_basic',
        ],
        jwks_uri: `${this.url}/${tenant}/discovery/v2.0/keys`,
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        issuer: `${base}/v2.0`,
        request_uri_parameter_supported: false,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        tenant_region_scope: 'EU',
        cloud_instance_name: 'microsoftonline.com',
      },
    };
  }

  private error(status: number, error: string, code: number, text: string): StandInResponse {
    const trace = randomUUID();
    const correlation = randomUUID();
    const timestamp = new Date()
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, 'Z');
    return {
      status,
      body: {
        error,
        error_description: `AADSTS${code}: ${text} Trace ID: ${trace} Correlation ID: ${correlation} Timestamp: ${timestamp}`,
        error_codes: [code],
        timestamp,
        trace_id: trace,
        correlation_id: correlation,
        error_uri: `${this.url}/error?code=${code}`,
      },
    };
  }

  private token(req: StandInRequest): StandInResponse {
    const tenant = req.params.tenant;
    if (tenant !== this.options.tenantId)
      return this.error(400, 'invalid_request', 90002, `Tenant '${tenant}' not found.`);
    const form = (req.body ?? {}) as Record<string, string>;
    if (form.grant_type !== 'client_credentials')
      return this.error(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
    const app = this.options.apps.find((a) => a.clientId === form.client_id);
    if (!app)
      return this.error(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${form.client_id}' was not found in the directory '${tenant}'.`,
      );
    const refused = this.authenticate(app, form);
    if (refused) return refused;
    if (form.scope !== `${ARM_AUDIENCE}/.default`)
      return this.error(
        400,
        'invalid_scope',
        1002012,
        `The provided value for scope ${form.scope} is not valid.`,
      );
    const now = Math.floor(Date.now() / 1000);
    const token = signJwt(
      {
        aud: ARM_AUDIENCE,
        iss: this.issuer,
        iat: now,
        nbf: now,
        exp: now + 3600,
        appid: app.clientId,
        tid: tenant,
        oid: randomUUID(),
        sub: randomUUID(),
        ver: '1.0',
      },
      this.signing.privateKey,
    );
    this.issued.add(token);
    return { body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token } };
  }

  private authenticate(app: EntraApp, form: Record<string, string>): StandInResponse | undefined {
    if (form.client_secret !== undefined) {
      if (app.clientSecret !== undefined && form.client_secret === app.clientSecret) return undefined;
      return this.error(
        401,
        'invalid_client',
        7000215,
        `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${app.clientId}'.`,
      );
    }
    if (
      form.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' ||
      !form.client_assertion
    )
      return this.error(
        401,
        'invalid_client',
        7000218,
        "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
      );
    const unverified = json(form.client_assertion.split('.')[1] ?? '');
    const credential = app.federated?.find(
      (f) => f.issuer === unverified?.iss && f.subject === unverified?.sub,
    );
    if (!credential)
      return this.error(
        400,
        'invalid_request',
        70021,
        `No matching federated identity record found for presented assertion. Assertion Issuer: '${String(unverified?.iss)}'. Assertion Subject: '${String(unverified?.sub)}'. Assertion Audience: '${String(unverified?.aud)}'.`,
      );
    const key =
      typeof credential.publicKey === 'string' ? createPublicKey(credential.publicKey) : credential.publicKey;
    const claims = verifiedClaims(form.client_assertion, key);
    if (!claims)
      return this.error(
        401,
        'invalid_client',
        5002738,
        `Invalid JWT token. The token signature is not valid.`,
      );
    const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audience.includes(FEDERATED_AUDIENCE))
      return this.error(
        400,
        'invalid_request',
        700212,
        `No matching federated identity record found for presented assertion audience '${String(claims.aud)}'.`,
      );
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now())
      return this.error(
        400,
        'invalid_client',
        700024,
        'Client assertion is not within its valid time range.',
      );
    return undefined;
  }
}
