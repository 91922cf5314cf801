import { ProviderStandIn } from '@app/local-agent';
import type { StandInRequest, StandInResponse } from '@app/local-agent';
import { GoogleStsEndpoint, type GoogleFederationSpec } from './google-sts.js';
import { GoogleTokenEndpoint, googleError, type ServiceAccountSpec } from './google-token.js';

const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';

/** What every Google API stand-in is given: where its resources live, and who may call it. */
export interface GoogleApiStandInOptions {
  project: string;
  region: string;
  serviceAccount: ServiceAccountSpec;
  /** Workload Identity Federation: Google STS at /sts/v1/token and IAM Credentials at /iam/v1/.... */
  federation?: GoogleFederationSpec;
}

/**
 * The base of the Google Cloud API stand-ins: Google's 404 for an unknown path, the token endpoint (`POST
 * /token`, a service account's assertion verified) and, with `federation`, STS and IAM Credentials; every API
 * route wrapped by `authed` (a bearer token issued here with the cloud-platform scope, else 401/403, then the
 * project and region of the path, refused in each API's own words).
 */
export abstract class GoogleApiStandIn extends ProviderStandIn {
  readonly tokens: GoogleTokenEndpoint;
  readonly sts?: GoogleStsEndpoint;

  constructor(
    name: string,
    protected readonly google: GoogleApiStandInOptions,
  ) {
    super(name, (req) =>
      googleError(404, `The requested URL ${req.path} was not found on this server.`, 'NOT_FOUND'),
    );
    this.tokens = new GoogleTokenEndpoint([google.serviceAccount]);
    this.route('POST', '/token', (req) => this.tokens.token(req));
    if (google.federation) {
      const sts = (this.sts = new GoogleStsEndpoint(google.federation, this.tokens));
      this.route('POST', '/sts/v1/token', (req) => sts.exchange(req)).route(
        'POST',
        '/iam/v1/projects/-/serviceAccounts/:account',
        (req) => sts.generateAccessToken(req),
      );
    }
  }

  get tokenUri(): string {
    return `${this.url}/token`;
  }

  /** An `external_account` configuration for this stand-in's STS (and IAM Credentials, to impersonate `account`). */
  externalAccount(tokenFile: string, account?: string): Record<string, unknown> {
    return {
      type: 'external_account',
      audience: this.google.federation?.audience,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${this.url}/sts/v1/token`,
      credential_source: { file: tokenFile },
      ...(account && {
        service_account_impersonation_url: `${this.url}/iam/v1/projects/-/serviceAccounts/${account}:generateAccessToken`,
      }),
    };
  }

  /** The API's answer to a path in a project the caller may not use. */
  protected abstract deniedProject(req: StandInRequest): StandInResponse;
  /** The API's answer to a path in a region it does not serve. */
  protected abstract unknownRegion(req: StandInRequest): StandInResponse;

  protected authed(
    handler: (req: StandInRequest) => StandInResponse,
  ): (req: StandInRequest) => StandInResponse {
    return (req) => {
      const refused = this.tokens.refuse(req, CLOUD_PLATFORM);
      if (refused) return refused;
      if (req.params.project !== this.google.project) return this.deniedProject(req);
      if (req.params.region !== this.google.region) return this.unknownRegion(req);
      return handler(req);
    };
  }
}
