import {
  DEFAULT_UPSTREAM,
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
  type UpstreamSettings,
} from '@app/plugin-kit';
import { IsHttpUrl, IsNotEmpty, IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { readUpstreamSettings, upstreamUrl } from '@app/plugin-kit/config/settings-checks.js';

export const GITLAB_PUBLIC_URL = 'https://gitlab.com';

/** The default server's variables; named ones (`GITLAB_<NAME>_URL`, ...) are read by `read`. */
export const gitlabVariables = (Base: EnvClass) => {
  class GitlabVariables extends Base {
    /** The instance root (https://gitlab.example.com); a trailing /api/v4 is accepted too. */
    @IsHttpUrl()
    GITLAB_URL = GITLAB_PUBLIC_URL;

    @Secret()
    @IsOptional()
    @IsString()
    @IsNotEmpty()
    GITLAB_TOKEN?: string;

    @Secret()
    @IsOptional()
    @IsString()
    @IsNotEmpty()
    GITLAB_TRIGGER_TOKEN?: string;
  }
  return GitlabVariables;
};
export type GitlabVariables = InstanceType<ReturnType<typeof gitlabVariables>>;

export interface GitLabServer {
  name: string;
  /** REST base, ending in /api/v4. */
  apiUrl: string;
  /** Personal/project/group access token: starts, follows, finds and cancels pipelines. */
  token?: string;
  /** Pipeline trigger token: starts pipelines only. */
  triggerToken?: string;
}

/** `GITLAB_URL`, `GITLAB_<NAME>_URL`, ... */
export const GITLAB_FAMILY = {
  prefix: 'GITLAB',
  settings: ['URL', 'TOKEN', 'TRIGGER_TOKEN'],
} satisfies UpstreamFamily;

/** `https://gitlab.example.com` and `https://gitlab.example.com/api/v4/` both give `.../api/v4`. */
export function gitlabApiUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/api\/v4$/.test(trimmed) ? trimmed : `${trimmed}/api/v4`;
}

function gitlab(server: UpstreamSettings, problems: string[], defaultUrl: string): GitLabServer | undefined {
  const { TOKEN: token, TRIGGER_TOKEN: triggerToken, URL: given } = server.values;
  if (token === undefined && triggerToken === undefined) {
    if (server.name !== DEFAULT_UPSTREAM)
      problems.push(
        `${server.variable('TOKEN')} or ${server.variable('TRIGGER_TOKEN')}: required with ${server.variable('URL')}`,
      );
    return undefined;
  }
  const url = upstreamUrl(server, 'URL', given ?? defaultUrl, problems, { defaultCheckedByEnvClass: true });
  return url ? { name: server.name, apiUrl: gitlabApiUrl(url), token, triggerToken } : undefined;
}

/** The default server's URL is GITLAB_URL (its default checked by the env class); a named one's is gitlab.com's. */
export function readGitlab(env: GitlabVariables, source: EnvSource): SettingsRead<Map<string, GitLabServer>> {
  return readUpstreamSettings(source, GITLAB_FAMILY, (server, problems) =>
    gitlab(server, problems, server.name === DEFAULT_UPSTREAM ? env.GITLAB_URL : GITLAB_PUBLIC_URL),
  );
}
