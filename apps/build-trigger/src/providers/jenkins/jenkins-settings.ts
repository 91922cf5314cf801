import {
  Secret,
  upstreamVariable,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
  type UpstreamSettings,
} from '@app/plugin-kit';
import { IsHttpUrl, IsNotEmpty, IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import {
  missingSettings,
  readUpstreamSettings,
  upstreamUrl,
} from '@app/plugin-kit/config/settings-checks.js';

/** The default server's variables; named ones (`JENKINS_<NAME>_URL`, ...) are read by `read`. */
export const jenkinsVariables = (Base: EnvClass) => {
  class JenkinsVariables extends Base {
    @IsOptional()
    @IsHttpUrl()
    JENKINS_URL?: string;

    @IsOptional()
    @IsString()
    @IsNotEmpty()
    JENKINS_USER?: string;

    @Secret()
    @IsOptional()
    @IsString()
    @IsNotEmpty()
    JENKINS_API_TOKEN?: string;
  }
  return JenkinsVariables;
};

export interface JenkinsServer {
  name: string;
  url: string;
  user: string;
  apiToken: string;
}

/** `JENKINS_URL`, `JENKINS_<NAME>_URL`, ... */
export const JENKINS_FAMILY = {
  prefix: 'JENKINS',
  settings: ['URL', 'USER', 'API_TOKEN'],
} satisfies UpstreamFamily;

function jenkins(server: UpstreamSettings, problems: string[]): JenkinsServer | undefined {
  const { URL: url, USER: user, API_TOKEN: apiToken } = server.values;
  const missing = missingSettings(server.values, JENKINS_FAMILY.settings);
  if (missing.length > 0) {
    problems.push(
      `${missing.map(server.variable).join(', ')}: required with the other ${upstreamVariable(JENKINS_FAMILY, server.name, '*')} variables`,
    );
    return undefined;
  }
  const checked = upstreamUrl(server, 'URL', url, problems, { defaultCheckedByEnvClass: true });
  return checked ? { name: server.name, url: checked, user: user!, apiToken: apiToken! } : undefined;
}

export function readJenkins(source: EnvSource): SettingsRead<Map<string, JenkinsServer>> {
  return readUpstreamSettings(source, JENKINS_FAMILY, jenkins);
}
