import { createPrivateKey, type KeyObject } from 'node:crypto';
import {
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamSettings,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import {
  BASE_URL,
  readUpstreamSettings,
  requireSettings,
  upstreamUrl,
} from '@app/plugin-kit/config/settings-checks.js';

/** The default connection's variables (so its secrets are known to the redactor); named ones are read by `read`. */
export const snowflakeVariables = (Base: EnvClass) => {
  class SnowflakeVariables extends Base {
    @IsOptional()
    @IsString()
    SNOWFLAKE_ACCOUNT?: string;

    @IsOptional()
    @IsString()
    SNOWFLAKE_URL?: string;

    @IsOptional()
    @IsString()
    SNOWFLAKE_USER?: string;

    @Secret()
    @IsOptional()
    @IsString()
    SNOWFLAKE_PRIVATE_KEY?: string;

    @Secret()
    @IsOptional()
    @IsString()
    SNOWFLAKE_PRIVATE_KEY_PASSPHRASE?: string;

    @IsOptional()
    @IsString()
    SNOWFLAKE_CONSOLE_URL?: string;
  }
  return SnowflakeVariables;
};

export interface SnowflakeConnection {
  /** `https://<account>.snowflakecomputing.com`, or the admin's SNOWFLAKE_URL (private link, a proxy). */
  url: string;
  /** The account and user as the key-pair JWT names them: upper case, the account without its region. */
  account: string;
  user: string;
  /** The PEM as configured (for the redactor) and the key it holds. */
  privateKeyPem: string;
  passphrase?: string;
  privateKey: KeyObject;
  /** Snowsight's page of the account, where a query's page is `#/compute/history/queries/<id>/detail`. */
  consoleUrl?: string;
}

export const SNOWFLAKE_FAMILY: UpstreamFamily = {
  prefix: 'SNOWFLAKE',
  settings: ['ACCOUNT', 'URL', 'USER', 'PRIVATE_KEY', 'PRIVATE_KEY_PASSPHRASE', 'CONSOLE_URL'],
};

const ACCOUNT = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

/**
 * Snowsight's address of an account: `orgname-accountname` → `app.snowflake.com/orgname/accountname`,
 * `locator.region[.cloud]` → `app.snowflake.com/region[.cloud]/locator`; a bare locator has no known region.
 */
export function snowsightUrl(account: string): string | undefined {
  const [first, ...region] = account.toLowerCase().split('.');
  if (region.length > 0) return `https://app.snowflake.com/${region.join('.')}/${first}`;
  const dash = first.indexOf('-');
  return dash > 0 ? `https://app.snowflake.com/${first.slice(0, dash)}/${first.slice(dash + 1)}` : undefined;
}

function readKey(c: UpstreamSettings, problems: string[]): KeyObject | undefined {
  const pem = c.values.PRIVATE_KEY!.replaceAll('\\n', '\n');
  try {
    const key = createPrivateKey({ key: pem, format: 'pem', passphrase: c.values.PRIVATE_KEY_PASSPHRASE });
    if (key.asymmetricKeyType === 'rsa') return key;
    problems.push(`${c.variable('PRIVATE_KEY')}: must be an RSA key (Snowflake's key-pair authentication)`);
  } catch {
    problems.push(
      `${c.variable('PRIVATE_KEY')}: must be a PEM private key (PKCS#8, encrypted with ${c.variable('PRIVATE_KEY_PASSPHRASE')} or not)`,
    );
  }
  return undefined;
}

export function readSnowflake(source: EnvSource): SettingsRead<Map<string, SnowflakeConnection>> {
  return readUpstreamSettings(source, SNOWFLAKE_FAMILY, (c, problems) => {
    const { values: f } = c;
    if (!requireSettings(c, ['ACCOUNT', 'USER', 'PRIVATE_KEY'], problems)) return undefined;
    if (!ACCOUNT.test(f.ACCOUNT!)) {
      problems.push(
        `${c.variable('ACCOUNT')}: must be an account identifier (orgname-accountname or a locator)`,
      );
      return undefined;
    }
    const given = f.URL ?? `https://${f.ACCOUNT!.toLowerCase()}.snowflakecomputing.com`;
    const url = upstreamUrl(c, 'URL', given, problems, BASE_URL) ?? given;
    const consoleUrl =
      f.CONSOLE_URL === undefined
        ? snowsightUrl(f.ACCOUNT!)
        : (upstreamUrl(c, 'CONSOLE_URL', f.CONSOLE_URL, problems, BASE_URL) ?? f.CONSOLE_URL);
    const privateKey = readKey(c, problems);
    if (!privateKey) return undefined;
    return {
      url,
      account: f.ACCOUNT!.split('.')[0]!.toUpperCase(),
      user: f.USER!.toUpperCase(),
      privateKeyPem: f.PRIVATE_KEY!,
      passphrase: f.PRIVATE_KEY_PASSPHRASE,
      privateKey,
      consoleUrl,
    };
  });
}
