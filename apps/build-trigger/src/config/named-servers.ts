import { httpUrlProblem, type EnvSource } from '@app/plugin-kit';
import {
  DEFAULT_SERVER,
  gitlabApiUrl,
  GITHUB_PUBLIC_API,
  GITLAB_PUBLIC_URL,
  type GitHubServer,
  type GitLabServer,
  type JenkinsServer,
  type ServerDirectory,
} from './servers.js';

export interface DefaultServerSettings {
  JENKINS_URL?: string;
  JENKINS_USER?: string;
  JENKINS_API_TOKEN?: string;
  GITHUB_TOKEN?: string;
  GITHUB_API_URL: string;
  GITLAB_URL: string;
  GITLAB_TOKEN?: string;
  GITLAB_TRIGGER_TOKEN?: string;
}

// Lazy, so `GITLAB_PROD_TRIGGER_TOKEN` is server PROD (not PROD_TRIGGER with _TOKEN).
const NAME = '([A-Z0-9]+?(?:_[A-Z0-9]+)*?)';
const JENKINS_NAMED = new RegExp(`^JENKINS_${NAME}_(URL|USER|API_TOKEN)$`);
const GITHUB_NAMED = new RegExp(`^GITHUB_${NAME}_(TOKEN|API_URL)$`);
const GITLAB_NAMED = new RegExp(`^GITLAB_${NAME}_(URL|TOKEN|TRIGGER_TOKEN)$`);

/** Unprefixed variables that the named patterns would otherwise read as a server called API, TRIGGER, ... */
const RESERVED = new Set(['JENKINS_API_TOKEN', 'GITHUB_API_URL', 'GITLAB_TRIGGER_TOKEN']);

function value(source: EnvSource, name: string): string | undefined {
  const v = source[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** Names of the servers a prefix defines, from every variable matching `pattern` (group 1 = name). */
function namesFor(source: EnvSource, pattern: RegExp): string[] {
  const names = new Set<string>();
  for (const [key, v] of Object.entries(source)) {
    if (RESERVED.has(key) || v === undefined || v === '') continue;
    const m = pattern.exec(key);
    if (m) names.add(m[1]);
  }
  return [...names].sort();
}

/** Checked by the env class already; a bad value there is reported once, by the class. */
const CLASS_CHECKED = new Set(['JENKINS_URL', 'GITHUB_API_URL', 'GITLAB_URL']);

function checkUrl(variable: string, url: string | undefined, problems: string[]): string | undefined {
  if (url === undefined) return undefined;
  if (httpUrlProblem(url)) {
    if (!CLASS_CHECKED.has(variable)) problems.push(`${variable}: must be an http(s) URL`);
    return undefined;
  }
  return url.replace(/\/+$/, '');
}

function jenkins(
  source: EnvSource,
  prefix: string,
  name: string,
  problems: string[],
): JenkinsServer | undefined {
  const [urlVar, userVar, tokenVar] = [`${prefix}_URL`, `${prefix}_USER`, `${prefix}_API_TOKEN`];
  const [url, user, apiToken] = [value(source, urlVar), value(source, userVar), value(source, tokenVar)];
  if (url === undefined && user === undefined && apiToken === undefined) return undefined;
  const missing = [
    url === undefined && urlVar,
    user === undefined && userVar,
    apiToken === undefined && tokenVar,
  ].filter(Boolean);
  if (missing.length > 0) {
    problems.push(`${missing.join(', ')}: required with the other ${prefix}_* variables`);
    return undefined;
  }
  const checked = checkUrl(urlVar, url, problems);
  return checked ? { name, url: checked, user: user!, apiToken: apiToken! } : undefined;
}

function github(
  source: EnvSource,
  prefix: string,
  name: string,
  problems: string[],
  defaultApi?: string,
): GitHubServer | undefined {
  const token = value(source, `${prefix}_TOKEN`);
  const apiVar = `${prefix}_API_URL`;
  const rawApi = value(source, apiVar) ?? defaultApi;
  if (token === undefined) {
    if (value(source, apiVar) !== undefined && name !== DEFAULT_SERVER)
      problems.push(`${prefix}_TOKEN: required with ${apiVar}`);
    return undefined;
  }
  const apiUrl = checkUrl(apiVar, rawApi ?? GITHUB_PUBLIC_API, problems);
  return apiUrl ? { name, apiUrl, token } : undefined;
}

function gitlab(
  source: EnvSource,
  prefix: string,
  name: string,
  problems: string[],
  defaultUrl?: string,
): GitLabServer | undefined {
  const token = value(source, `${prefix}_TOKEN`);
  const triggerToken = value(source, `${prefix}_TRIGGER_TOKEN`);
  const urlVar = `${prefix}_URL`;
  const rawUrl = value(source, urlVar) ?? defaultUrl;
  if (token === undefined && triggerToken === undefined) {
    if (name !== DEFAULT_SERVER)
      problems.push(`${prefix}_TOKEN or ${prefix}_TRIGGER_TOKEN: required with ${urlVar}`);
    return undefined;
  }
  if (rawUrl === undefined) {
    problems.push(`${urlVar}: required with ${prefix}_TOKEN`);
    return undefined;
  }
  const url = checkUrl(urlVar, rawUrl, problems);
  return url ? { name, apiUrl: gitlabApiUrl(url), token, triggerToken } : undefined;
}

/**
 * Reads the default servers (already validated by the env class) and the named ones
 * (`JENKINS_<NAME>_URL`/`_USER`/`_API_TOKEN`, `GITHUB_<NAME>_TOKEN`/`_API_URL`,
 * `GITLAB_<NAME>_URL`/`_TOKEN`/`_TRIGGER_TOKEN`). Returns the directory and every problem, each naming
 * the variable. At least one server must be configured.
 */
export function readServers(
  defaults: DefaultServerSettings,
  source: EnvSource,
): { servers: ServerDirectory; problems: string[] } {
  const problems: string[] = [];
  const servers: ServerDirectory = { jenkins: new Map(), github: new Map(), gitlab: new Map() };
  const withDefaults: EnvSource = { ...source, ...definedOnly(defaults) };

  const add = <T extends { name: string }>(map: Map<string, T>, server: T | undefined): void => {
    if (server) map.set(server.name, server);
  };
  add(servers.jenkins, jenkins(withDefaults, 'JENKINS', DEFAULT_SERVER, problems));
  add(servers.github, github(withDefaults, 'GITHUB', DEFAULT_SERVER, problems, defaults.GITHUB_API_URL));
  add(
    servers.gitlab,
    gitlab(withDefaults, 'GITLAB', DEFAULT_SERVER, problems, defaults.GITLAB_URL ?? GITLAB_PUBLIC_URL),
  );

  for (const env of namesFor(source, JENKINS_NAMED))
    add(servers.jenkins, jenkins(source, `JENKINS_${env}`, env.toLowerCase(), problems));
  for (const env of namesFor(source, GITHUB_NAMED))
    add(servers.github, github(source, `GITHUB_${env}`, env.toLowerCase(), problems));
  for (const env of namesFor(source, GITLAB_NAMED)) {
    add(servers.gitlab, gitlab(source, `GITLAB_${env}`, env.toLowerCase(), problems, GITLAB_PUBLIC_URL));
  }

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

function definedOnly(settings: DefaultServerSettings): EnvSource {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => typeof v === 'string')) as EnvSource;
}
