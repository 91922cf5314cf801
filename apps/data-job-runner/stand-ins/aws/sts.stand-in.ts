import { randomBytes, randomUUID } from 'node:crypto';
import {
  ProviderStandIn,
  verifySigV4,
  type AwsKey,
  type StandInRequest,
  type StandInResponse,
} from '@app/local-agent';
import { STAND_IN_ACCOUNT } from './aws-json-stand-in.js';

const XMLNS = 'https://sts.amazonaws.com/doc/2011-06-15/';
const HOUR_MS = 3600_000;

export interface StsStandInOptions {
  /** The keys whose signatures AssumeRole accepts. */
  keys: readonly AwsKey[];
  /** Where issued credentials are added, so that the service stand-ins accept them. */
  issued: AwsKey[];
  /** The roles that may be assumed. */
  roles: readonly string[];
  /** The web-identity token (a service-account token) AssumeRoleWithWebIdentity accepts. */
  webIdentityToken?: string;
  region?: string;
}

/**
 * AWS STS (Query protocol: a form body with `Action` and `Version=2011-06-15`, XML replies): AssumeRole, signed
 * with SigV4 (signing name `sts`), and AssumeRoleWithWebIdentity, unsigned and authorised by the token
 * (IRSA, EKS Pod Identity). Each issues temporary keys with a session token.
 */
export class StsStandIn extends ProviderStandIn {
  readonly assumed: Array<{ action: string; roleArn: string; sessionName: string; externalId?: string }> = [];
  readonly region: string;

  constructor(private readonly options: StsStandInOptions) {
    super('sts', () => errorReply(404, 'Sender', 'NotFound', 'Not Found'));
    this.region = options.region ?? 'eu-west-1';
    this.route('POST', '/', (req) => this.dispatch(req));
  }

  private dispatch(req: StandInRequest): StandInResponse {
    const form = new URLSearchParams(req.text);
    const action = form.get('Action');
    if (form.get('Version') !== '2011-06-15')
      return errorReply(400, 'Sender', 'InvalidAction', 'Could not find operation for version');
    if (action === 'AssumeRole') {
      const refused = verifySigV4(req, { keys: this.options.keys, region: this.region, service: 'sts' });
      if (refused)
        return errorReply(refused.status, 'Sender', refused.type.replace(/Exception$/, ''), refused.message);
    } else if (action === 'AssumeRoleWithWebIdentity') {
      if (!this.options.webIdentityToken || form.get('WebIdentityToken') !== this.options.webIdentityToken)
        return errorReply(
          400,
          'Sender',
          'InvalidIdentityToken',
          "Couldn't retrieve verification key from your identity provider",
        );
    } else return errorReply(400, 'Sender', 'InvalidAction', `Could not find operation ${action ?? ''}`);
    const roleArn = form.get('RoleArn') ?? '';
    const sessionName = form.get('RoleSessionName') ?? '';
    if (!this.options.roles.includes(roleArn))
      return errorReply(
        403,
        'Sender',
        'AccessDenied',
        `User is not authorized to perform: sts:${action} on resource: ${roleArn}`,
      );
    this.assumed.push({
      action: action!,
      roleArn,
      sessionName,
      externalId: form.get('ExternalId') ?? undefined,
    });
    const key: Required<AwsKey> = {
      accessKeyId: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(30).toString('base64'),
      sessionToken: `FwoGZXIvYXdz${randomBytes(48).toString('base64url')}`,
    };
    this.options.issued.push(key);
    const role = roleArn.split('/').pop();
    const result = `<AssumedRoleUser><Arn>arn:aws:sts::${STAND_IN_ACCOUNT}:assumed-role/${role}/${sessionName}</Arn><AssumedRoleId>AROA${STAND_IN_ACCOUNT}:${sessionName}</AssumedRoleId></AssumedRoleUser><Credentials><AccessKeyId>${key.accessKeyId}</AccessKeyId><SecretAccessKey>${key.secretAccessKey}</SecretAccessKey><SessionToken>${key.sessionToken}</SessionToken><Expiration>${new Date(Date.now() + HOUR_MS).toISOString()}</Expiration></Credentials>`;
    return {
      status: 200,
      headers: { 'Content-Type': 'text/xml' },
      body: `<${action}Response xmlns="${XMLNS}"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`,
    };
  }
}

function errorReply(status: number, type: string, code: string, message: string): StandInResponse {
  return {
    status,
    headers: { 'Content-Type': 'text/xml' },
    body: `<ErrorResponse xmlns="${XMLNS}"><Error><Type>${type}</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  };
}
