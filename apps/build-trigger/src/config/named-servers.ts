import {
  DEFAULT_UPSTREAM,
  readUpstreams,
  upstreamVariable,
  type EnvSource,
  type UpstreamSettings,
} from '@app/plugin-kit';
import { missingSettings, urlSetting } from '@app/plugin-kit/config/settings-checks.js';
import {
  gitlabApiUrl,
  GITHUB_PUBLIC_API,
  GITLAB_PUBLIC_URL,
  SERVER_FAMILIES,
  type GitHubServer,
  type GitLabServer,
  type JenkinsServer,
  type ServerDirectory,
} from './servers.js';

export interface DefaultServerSettings {
  GITHUB_API_URL: string;
  GITLAB_URL: string;
}

/**
 * A server's URL, without trailing slashes. The default server's (JENKINS_URL, GITHUB_API_URL, GITLAB_URL) is
 * checked by the env class already (`@IsHttpUrl()`), which reports a bad value once.
 */
function checkUrl(server: UpstreamSettings, setting: string, url: string | undefined, problems: string[]) {
  if (url === undefined) return undefined;
  return urlSetting(server.variable(setting), url, problems, {
    checkedByEnvClass: server.name === DEFAULT_UPSTREAM,
  });
}

function jenkins(server: UpstreamSettings, problems: string[]): JenkinsServer | undefined {
  const { URL: url, USER: user, API_TOKEN: apiToken } = server.values;
  const missing = missingSettings(server.values, SERVER_FAMILIES.jenkins.settings);
  if (missing.length > 0) {
    problems.push(
      `${missing.map(server.variable).join(', ')}: required with the other ${upstreamVariable(SERVER_FAMILIES.jenkins, server.name, '*')} variables`,
    );
    return undefined;
  }
  const checked = checkUrl(server, 'URL', url, problems);
  return checked ? { name: server.name, url: checked, user: user!, apiToken: apiToken! } : undefined;
}

function github(server: UpstreamSettings, problems: string[], defaultApi: string): GitHubServer | undefined {
  const { TOKEN: token, API_URL: api } = server.values;
  if (token === undefined) {
    if (api !== undefined && server.name !== DEFAULT_UPSTREAM)
      problems.push(`${server.variable('TOKEN')}: required with ${server.variable('API_URL')}`);
    return undefined;
  }
  const apiUrl = checkUrl(server, 'API_URL', api ?? defaultApi, problems);
  return apiUrl ? { name: server.name, apiUrl, token } : undefined;
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
  const url = checkUrl(server, 'URL', given ?? defaultUrl, problems);
  return url ? { name: server.name, apiUrl: gitlabApiUrl(url), token, triggerToken } : undefined;
}

/**
 * Reads the default servers (their URLs validated by the env class, which gives GitHub's and GitLab's defaults)
 * and the named ones (`JENKINS_<NAME>_URL`/`_USER`/`_API_TOKEN`, `GITHUB_<NAME>_TOKEN`/`_API_URL`,
 * `GITLAB_<NAME>_URL`/`_TOKEN`/`_TRIGGER_TOKEN`). Returns the directory and every problem, each naming the
 * variable. At least one server must be configured.
 */
export function readServers(
  defaults: DefaultServerSettings,
  source: EnvSource,
): { servers: ServerDirectory; problems: string[] } {
  const servers: ServerDirectory = { jenkins: new Map(), github: new Map(), gitlab: new Map() };
  const read = {
    jenkins: readUpstreams(source, SERVER_FAMILIES.jenkins),
    github: readUpstreams(source, SERVER_FAMILIES.github),
    gitlab: readUpstreams(source, SERVER_FAMILIES.gitlab),
  };
  const problems = [...read.jenkins.problems, ...read.github.problems, ...read.gitlab.problems];
  const isDefault = (s: UpstreamSettings) => s.name === DEFAULT_UPSTREAM;
  const add = <T extends { name: string }>(map: Map<string, T>, server: T | undefined): void => {
    if (server) map.set(server.name, server);
  };
  for (const s of read.jenkins.upstreams.values()) add(servers.jenkins, jenkins(s, problems));
  for (const s of read.github.upstreams.values())
    add(servers.github, github(s, problems, isDefault(s) ? defaults.GITHUB_API_URL : GITHUB_PUBLIC_API));
  for (const s of read.gitlab.upstreams.values())
    add(servers.gitlab, gitlab(s, problems, isDefault(s) ? defaults.GITLAB_URL : GITLAB_PUBLIC_URL));

  // Only when no credential was even given: a bad variable has its own problem already.
  const total = servers.jenkins.size + servers.github.size + servers.gitlab.size;
  const tried = Object.entries(source).some(
    ([k, v]) => v && /^(JENKINS|GITHUB|GITLAB)_/.test(k) && !/^(GITHUB_API_URL|GITLAB_URL)$/.test(k),
  );
  if (total === 0 && !tried) {
    problems.push(
      'no build server configured: set JENKINS_URL + JENKINS_USER + JENKINS_API_TOKEN, GITHUB_TOKEN, or GITLAB_TOKEN / GITLAB_TRIGGER_TOKEN (or their named JENKINS_<NAME>_* ... forms)',
    );
  }
  return { servers, problems };
}
