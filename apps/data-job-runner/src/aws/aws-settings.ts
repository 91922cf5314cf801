import {
  Secret,
  type Credential,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import {
  BASE_URL,
  pairOrNone,
  readUpstreamSettings,
  requireSettings,
  upstreamUrl,
} from '@app/plugin-kit/config/settings-checks.js';

/**
 * The settings of one AWS connection. Only REGION is required: without keys the AWS SDK's own chain finds the
 * credentials (a web-identity token file from IRSA or EKS Pod Identity, the instance role); ROLE_ARN is then
 * assumed with them, so a named connection can work in an account of its own.
 */
export const AWS_SETTINGS = [
  'REGION',
  'ENDPOINT_URL',
  'ACCESS_KEY_ID',
  'SECRET_ACCESS_KEY',
  'SESSION_TOKEN',
  'ROLE_ARN',
  'EXTERNAL_ID',
] as const;

const SECRET_SETTINGS = new Set(['SECRET_ACCESS_KEY', 'SESSION_TOKEN']);

export interface AwsKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface AwsConnection {
  region: string;
  /** A VPC endpoint, or a local stand-in; else the SDK's endpoint for the region. */
  endpoint?: string;
  /** Keys from a Secret; without them, the SDK's default chain. */
  keys?: AwsKeys;
  roleArn?: string;
  externalId?: string;
}

export const awsFamily = (prefix: string): UpstreamFamily => ({ prefix, settings: AWS_SETTINGS });

/** The default connection's variables (`<PREFIX>_REGION`, ...), the secret ones marked for the redactor. */
export const awsVariables =
  (prefix: string) =>
  (Base: EnvClass): EnvClass => {
    class AwsVariables extends Base {}
    for (const setting of AWS_SETTINGS) {
      const name = `${prefix}_${setting}`;
      if (SECRET_SETTINGS.has(setting)) Secret()(AwsVariables.prototype, name);
      IsOptional()(AwsVariables.prototype, name);
      IsString()(AwsVariables.prototype, name);
    }
    return AwsVariables;
  };

const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;

export function readAws(source: EnvSource, family: UpstreamFamily): SettingsRead<Map<string, AwsConnection>> {
  return readUpstreamSettings(source, family, (c, problems) => {
    if (!requireSettings(c, ['REGION'], problems)) return undefined;
    const { REGION: region, ENDPOINT_URL, ACCESS_KEY_ID, SECRET_ACCESS_KEY, SESSION_TOKEN } = c.values;
    if (!REGION.test(region!)) problems.push(`${c.variable('REGION')}: must be an AWS region like eu-west-1`);
    pairOrNone(c, 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY', problems);
    if (SESSION_TOKEN !== undefined && ACCESS_KEY_ID === undefined)
      problems.push(
        `${c.variable('SESSION_TOKEN')}: must be set together with ${c.variable('ACCESS_KEY_ID')}`,
      );
    const roleArn = c.values.ROLE_ARN;
    if (roleArn !== undefined && !ROLE_ARN.test(roleArn))
      problems.push(
        `${c.variable('ROLE_ARN')}: must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)`,
      );
    if (c.values.EXTERNAL_ID !== undefined && roleArn === undefined)
      problems.push(`${c.variable('EXTERNAL_ID')}: must be set together with ${c.variable('ROLE_ARN')}`);
    return {
      region: region!,
      endpoint: upstreamUrl(c, 'ENDPOINT_URL', ENDPOINT_URL, problems, BASE_URL) ?? ENDPOINT_URL,
      keys:
        ACCESS_KEY_ID !== undefined && SECRET_ACCESS_KEY !== undefined
          ? { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY, sessionToken: SESSION_TOKEN }
          : undefined,
      roleArn,
      externalId: c.values.EXTERNAL_ID,
    };
  });
}

/** The secrets of the keys the admin gave; credentials the SDK's chain finds are taught to the redactor when resolved. */
export const awsCredentials = (connections: Map<string, AwsConnection>): Credential[] =>
  [...connections.values()].flatMap(({ keys }) =>
    keys ? [keys.secretAccessKey, keys.sessionToken].flatMap((secret) => (secret ? [{ secret }] : [])) : [],
  );
