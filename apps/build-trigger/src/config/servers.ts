import type { UpstreamFamily } from '@app/plugin-kit';

/** Admin-configured CI servers: `default` from the unprefixed variables (JENKINS_URL, ...), named ones by name. */
export interface JenkinsServer {
  name: string;
  url: string;
  user: string;
  apiToken: string;
}

export interface GitHubServer {
  name: string;
  apiUrl: string;
  token: string;
}

export interface GitLabServer {
  name: string;
  /** REST base, ending in /api/v4. */
  apiUrl: string;
  /** Personal/project/group access token: starts, follows, finds and cancels pipelines. */
  token?: string;
  /** Pipeline trigger token: starts pipelines only. */
  triggerToken?: string;
}

export interface ServerDirectory {
  jenkins: Map<string, JenkinsServer>;
  github: Map<string, GitHubServer>;
  gitlab: Map<string, GitLabServer>;
}

/** The variables of each CI system's servers: `JENKINS_URL`, `JENKINS_<NAME>_URL`, ... */
export const SERVER_FAMILIES = {
  jenkins: { prefix: 'JENKINS', settings: ['URL', 'USER', 'API_TOKEN'] },
  github: { prefix: 'GITHUB', settings: ['TOKEN', 'API_URL'] },
  gitlab: { prefix: 'GITLAB', settings: ['URL', 'TOKEN', 'TRIGGER_TOKEN'] },
} as const satisfies Record<keyof ServerDirectory, UpstreamFamily>;

export const GITHUB_PUBLIC_API = 'https://api.github.com';
export const GITLAB_PUBLIC_URL = 'https://gitlab.com';

/** `https://gitlab.example.com` and `https://gitlab.example.com/api/v4/` both give `.../api/v4`. */
export function gitlabApiUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/api\/v4$/.test(trimmed) ? trimmed : `${trimmed}/api/v4`;
}
