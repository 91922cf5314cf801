import {
  DEFAULT_UPSTREAM,
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import {
  BASE_URL,
  readUpstreamSettings,
  requireSettings,
  upstreamUrl,
} from '@app/plugin-kit/config/settings-checks.js';

/** The default connection's variables (so its secret is known to the redactor); named ones are read by `read`. */
export const dbtCloudVariables = (Base: EnvClass) => {
  class DbtCloudVariables extends Base {
    @IsOptional()
    @IsString()
    DBT_CLOUD_URL?: string;

    @IsOptional()
    @IsString()
    DBT_CLOUD_ACCOUNT_ID?: string;

    @Secret()
    @IsOptional()
    @IsString()
    DBT_CLOUD_API_TOKEN?: string;
  }
  return DbtCloudVariables;
};

export interface DbtCloudConnection {
  url: string;
  accountId: string;
  token: string;
}

export const DBT_CLOUD_DEFAULT_URL = 'https://cloud.getdbt.com';

export const DBT_CLOUD_FAMILY: UpstreamFamily = {
  prefix: 'DBT_CLOUD',
  settings: ['URL', 'ACCOUNT_ID', 'API_TOKEN'],
};

export function readDbtCloud(source: EnvSource): SettingsRead<Map<string, DbtCloudConnection>> {
  return readUpstreamSettings(source, DBT_CLOUD_FAMILY, (c, problems) => {
    const { values: f } = c;
    // DBT_CLOUD_URL alone (its default spelled out) configures nothing.
    if (f.ACCOUNT_ID === undefined && f.API_TOKEN === undefined && c.name === DEFAULT_UPSTREAM)
      return undefined;
    if (!requireSettings(c, ['ACCOUNT_ID', 'API_TOKEN'], problems)) return undefined;
    const given = f.URL ?? DBT_CLOUD_DEFAULT_URL;
    const url = upstreamUrl(c, 'URL', given, problems, BASE_URL) ?? given;
    if (!/^\d+$/.test(f.ACCOUNT_ID!)) problems.push(`${c.variable('ACCOUNT_ID')}: must be a number`);
    return { url, accountId: f.ACCOUNT_ID!, token: f.API_TOKEN! };
  });
}
