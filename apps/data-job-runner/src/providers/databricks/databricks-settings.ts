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
  readUpstreamSettings,
  requireSettings,
  upstreamUrl,
} from '@app/plugin-kit/config/settings-checks.js';

/** The default connection's variables (so its secret is known to the redactor); named ones are read by `read`. */
export const databricksVariables = (Base: EnvClass) => {
  class DatabricksVariables extends Base {
    /** Workspace URL, e.g. https://adb-1234.5.azuredatabricks.net (the scheme defaults to https). */
    @IsOptional()
    @IsString()
    DATABRICKS_HOST?: string;

    @Secret()
    @IsOptional()
    @IsString()
    DATABRICKS_TOKEN?: string;
  }
  return DatabricksVariables;
};

export interface DatabricksConnection {
  host: string;
  token: string;
}

/** `DATABRICKS_HOST`, `DATABRICKS_<NAME>_HOST`, ... */
export const DATABRICKS_FAMILY: UpstreamFamily = { prefix: 'DATABRICKS', settings: ['HOST', 'TOKEN'] };

export function readDatabricks(source: EnvSource): SettingsRead<Map<string, DatabricksConnection>> {
  return readUpstreamSettings(source, DATABRICKS_FAMILY, (c, problems) => {
    if (!requireSettings(c, ['HOST', 'TOKEN'], problems)) return undefined;
    const host =
      upstreamUrl(c, 'HOST', c.values.HOST, problems, { ...BASE_URL, defaultScheme: 'https' }) ??
      c.values.HOST!;
    return { host, token: c.values.TOKEN! };
  });
}
