import {
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { baseUrl, readConnections, requireAll } from '../connection-checks.js';

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
  const problems: string[] = [];
  const connections = new Map<string, DatabricksConnection>();
  for (const c of readConnections(source, DATABRICKS_FAMILY, problems)) {
    if (!requireAll(c, ['HOST', 'TOKEN'], problems)) continue;
    const host = baseUrl(c, 'HOST', c.fields.HOST!, problems, 'https');
    connections.set(c.name, { host, token: c.fields.TOKEN! });
  }
  return { settings: connections, problems };
}
