/** Admin-configured CI servers. `default` comes from the unprefixed variables (JENKINS_URL, ...). */
export const DEFAULT_SERVER = 'default';

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

export const GITHUB_PUBLIC_API = 'https://api.github.com';
export const GITLAB_PUBLIC_URL = 'https://gitlab.com';

/** `https://gitlab.example.com` and `https://gitlab.example.com/api/v4/` both give `.../api/v4`. */
export function gitlabApiUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/api\/v4$/.test(trimmed) ? trimmed : `${trimmed}/api/v4`;
}

/** How a body's `server` is looked up: `prod-eu` and `PROD_EU` are server prod_eu; none is `default`. */
export function serverId(server: string | undefined): string {
  return server === undefined ? DEFAULT_SERVER : server.toLowerCase().replace(/-/g, '_');
}

/** Body `server: prod-eu` ↔ env `JENKINS_PROD_EU_URL`. */
export function serverEnvName(name: string): string {
  return name.toUpperCase().replace(/-/g, '_');
}
