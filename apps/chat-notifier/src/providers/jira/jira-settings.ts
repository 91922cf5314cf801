import { httpUrlProblem, readUpstreams, type EnvSource, type UpstreamKind } from '@app/plugin-kit';
import { checkSettings, credentialProblem } from '../../shared/destination-settings.js';

/** A Jira project key as Jira spells one (`OPS`, `REL2`). */
export const JIRA_PROJECT = /^[A-Z][A-Z0-9_]{0,9}$/;

export interface JiraSite {
  /** The site's root, `https://<site>.atlassian.net`. */
  url: string;
  /** The Atlassian account the gate acts as: basic auth with its email and an API token. */
  email: string;
  apiToken: string;
  /** The projects approval issues may be opened or waited on in: the admin's list, nothing else. */
  projects: Set<string>;
}

/**
 * Sites: `APPROVALS_JIRA_URL`, `_EMAIL`, `_API_TOKEN`, `_PROJECTS` for the default one,
 * `APPROVALS_JIRA_<NAME>_URL` … for named ones, chosen with `site:`.
 */
export const JIRA_FAMILY = { prefix: 'APPROVALS_JIRA', settings: ['URL', 'EMAIL', 'API_TOKEN', 'PROJECTS'] };

export const JIRA_SITES: UpstreamKind = {
  provider: 'Jira',
  scope: 'jira',
  field: 'site',
  enable: 'APPROVALS_JIRA_URL, APPROVALS_JIRA_EMAIL, APPROVALS_JIRA_API_TOKEN and APPROVALS_JIRA_PROJECTS',
  variablesFor: (name) =>
    `APPROVALS_JIRA_${name}_URL, _EMAIL, _API_TOKEN and APPROVALS_JIRA_${name}_PROJECTS`,
};

const projectsProblem = (value: string) =>
  value.split(/[\s,]+/).every((p) => p === '' || JIRA_PROJECT.test(p))
    ? undefined
    : 'must be project keys (OPS), separated by commas or spaces';

const emailProblem = (value: string) => (/^[^\s@]+@[^\s@]+$/.test(value) ? undefined : 'must be an email');

export function readJiraSites(source: EnvSource): { sites: Map<string, JiraSite>; problems: string[] } {
  const { upstreams, problems } = readUpstreams(source, JIRA_FAMILY);
  const sites = new Map<string, JiraSite>();
  for (const [name, given] of upstreams) {
    const checked = checkSettings(given, {
      URL: httpUrlProblem,
      EMAIL: emailProblem,
      API_TOKEN: credentialProblem,
      PROJECTS: projectsProblem,
    });
    problems.push(...checked.problems);
    const set = JIRA_FAMILY.settings.find((s) => given.values[s] !== undefined)!;
    const missing = JIRA_FAMILY.settings.filter((s) => given.values[s] === undefined);
    for (const required of missing)
      problems.push(`${given.variable(required)}: is required with ${given.variable(set)}`);
    const { URL: url, EMAIL: email, API_TOKEN: apiToken, PROJECTS: projects } = given.values;
    if (missing.length === 0 && checked.failed.size === 0)
      sites.set(name, {
        url: url!.replace(/\/+$/, ''),
        email: email!,
        apiToken: apiToken!,
        projects: new Set(projects!.split(/[\s,]+/).filter((p) => p !== '')),
      });
  }
  return { sites, problems };
}
