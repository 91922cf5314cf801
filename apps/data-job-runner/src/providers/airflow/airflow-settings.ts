import {
  Secret,
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

/** The default connection's variables (so its secrets are known to the redactor); named ones are read by `read`. */
export const airflowVariables = (Base: EnvClass) => {
  class AirflowVariables extends Base {
    /** Airflow web server base URL (the API lives under /api/v1 or /api/v2). */
    @IsOptional()
    @IsString()
    AIRFLOW_URL?: string;

    @IsOptional()
    @IsString()
    AIRFLOW_USERNAME?: string;

    @Secret()
    @IsOptional()
    @IsString()
    AIRFLOW_PASSWORD?: string;

    /** A bearer token instead of username/password (Astronomer, Composer, or a long-lived Airflow 3 JWT). */
    @Secret()
    @IsOptional()
    @IsString()
    AIRFLOW_TOKEN?: string;

    /** v1 (Airflow 2), v2 (Airflow 3) or auto (probe once per connection). */
    @IsOptional()
    @IsString()
    AIRFLOW_API_VERSION?: string;
  }
  return AirflowVariables;
};

/** v1 (Airflow 2), v2 (Airflow 3) or auto (probed once per connection). */
export type AirflowApiSetting = 'v1' | 'v2' | 'auto';

export interface AirflowConnection {
  url: string;
  username?: string;
  password?: string;
  token?: string;
  apiVersion: AirflowApiSetting;
}

export const AIRFLOW_FAMILY: UpstreamFamily = {
  prefix: 'AIRFLOW',
  settings: ['URL', 'USERNAME', 'PASSWORD', 'TOKEN', 'API_VERSION'],
};

export function readAirflow(source: EnvSource): SettingsRead<Map<string, AirflowConnection>> {
  return readUpstreamSettings(source, AIRFLOW_FAMILY, (c, problems) => {
    const { values: f, variable: v } = c;
    if (!requireSettings(c, ['URL'], problems)) return undefined;
    const url = upstreamUrl(c, 'URL', f.URL, problems, BASE_URL) ?? f.URL!;
    pairOrNone(c, 'USERNAME', 'PASSWORD', problems);
    const hasPair = f.USERNAME !== undefined && f.PASSWORD !== undefined;
    if (hasPair && f.TOKEN !== undefined) {
      problems.push(`${v('TOKEN')}: set either it or ${v('USERNAME')}/${v('PASSWORD')}, not both`);
    } else if (f.TOKEN === undefined && f.USERNAME === undefined && f.PASSWORD === undefined) {
      problems.push(`${v('USERNAME')}/${v('PASSWORD')} or ${v('TOKEN')}: must be set`);
    }
    const apiVersion = (f.API_VERSION ?? 'auto').toLowerCase();
    if (!['v1', 'v2', 'auto'].includes(apiVersion))
      problems.push(`${v('API_VERSION')}: must be one of v1, v2, auto`);
    return {
      url,
      username: f.USERNAME,
      password: f.PASSWORD,
      token: f.TOKEN,
      apiVersion: apiVersion as AirflowApiSetting,
    };
  });
}
