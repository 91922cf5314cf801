import {
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { baseUrl, pairOrNone, readConnections, requireAll } from '../connection-checks.js';

/** The default connection's variables (so its secret is known to the redactor); named ones are read by `read`. */
export const livyVariables = (Base: EnvClass) => {
  class LivyVariables extends Base {
    @IsOptional()
    @IsString()
    LIVY_URL?: string;

    @IsOptional()
    @IsString()
    LIVY_USERNAME?: string;

    @Secret()
    @IsOptional()
    @IsString()
    LIVY_PASSWORD?: string;
  }
  return LivyVariables;
};

export interface LivyConnection {
  url: string;
  username?: string;
  password?: string;
}

export const LIVY_FAMILY: UpstreamFamily = { prefix: 'LIVY', settings: ['URL', 'USERNAME', 'PASSWORD'] };

export function readLivy(source: EnvSource): SettingsRead<Map<string, LivyConnection>> {
  const problems: string[] = [];
  const connections = new Map<string, LivyConnection>();
  for (const c of readConnections(source, LIVY_FAMILY, problems)) {
    if (!requireAll(c, ['URL'], problems)) continue;
    const url = baseUrl(c, 'URL', c.fields.URL!, problems);
    pairOrNone(c, 'USERNAME', 'PASSWORD', problems);
    connections.set(c.name, { url, username: c.fields.USERNAME, password: c.fields.PASSWORD });
  }
  return { settings: connections, problems };
}
