import {
  DEFAULT_UPSTREAM,
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
  type UpstreamSettings,
} from '@app/plugin-kit';
import {
  IsGoDuration,
  IsHttpUrl,
  IsNotEmpty,
  IsOptional,
  IsString,
} from '@app/plugin-kit/config/env-rules.js';
import { readUpstreamSettings, upstreamUrl } from '@app/plugin-kit/config/settings-checks.js';

export const GITHUB_PUBLIC_API = 'https://api.github.com';

/** The default server's variables; named ones (`GITHUB_<NAME>_TOKEN`, ...) are read by `read`. */
export const githubVariables = (Base: EnvClass) => {
  class GithubVariables extends Base {
    @Secret()
    @IsOptional()
    @IsString()
    @IsNotEmpty()
    GITHUB_TOKEN?: string;

    /** https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server. */
    @IsHttpUrl()
    GITHUB_API_URL = GITHUB_PUBLIC_API;

    /** GitHub without run details: how long to look for a dispatched run (by its argo_key run-name) before failing. */
    @IsGoDuration({ min: '1s', max: '1h' })
    GITHUB_RUN_LOOKUP_TIMEOUT = '2m';
  }
  return GithubVariables;
};
export type GithubVariables = InstanceType<ReturnType<typeof githubVariables>>;

export interface GitHubServer {
  name: string;
  apiUrl: string;
  token: string;
}

/** `GITHUB_TOKEN`, `GITHUB_<NAME>_TOKEN`, ... */
export const GITHUB_FAMILY = { prefix: 'GITHUB', settings: ['TOKEN', 'API_URL'] } satisfies UpstreamFamily;

function github(server: UpstreamSettings, problems: string[], defaultApi: string): GitHubServer | undefined {
  const { TOKEN: token, API_URL: api } = server.values;
  if (token === undefined) {
    if (api !== undefined && server.name !== DEFAULT_UPSTREAM)
      problems.push(`${server.variable('TOKEN')}: required with ${server.variable('API_URL')}`);
    return undefined;
  }
  const apiUrl = upstreamUrl(server, 'API_URL', api ?? defaultApi, problems, {
    defaultCheckedByEnvClass: true,
  });
  return apiUrl ? { name: server.name, apiUrl, token } : undefined;
}

/** The default server's API is GITHUB_API_URL (its default checked by the env class); a named one's is GitHub's. */
export function readGithub(env: GithubVariables, source: EnvSource): SettingsRead<Map<string, GitHubServer>> {
  return readUpstreamSettings(source, GITHUB_FAMILY, (server, problems) =>
    github(server, problems, server.name === DEFAULT_UPSTREAM ? env.GITHUB_API_URL : GITHUB_PUBLIC_API),
  );
}
