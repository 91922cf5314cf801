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
  return readUpstreamSettings(source, LIVY_FAMILY, (c, problems) => {
    if (!requireSettings(c, ['URL'], problems)) return undefined;
    const url = upstreamUrl(c, 'URL', c.values.URL, problems, BASE_URL) ?? c.values.URL!;
    pairOrNone(c, 'USERNAME', 'PASSWORD', problems);
    return { url, username: c.values.USERNAME, password: c.values.PASSWORD };
  });
}
