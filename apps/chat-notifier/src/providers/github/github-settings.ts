import { httpUrlProblem, readUpstreams, type EnvSource, type UpstreamKind } from '@app/plugin-kit';
import { checkSettings, credentialProblem } from '../../shared/destination-settings.js';

/** GitHub's REST API; GitHub Enterprise Server answers at https://<host>/api/v3. */
export const GITHUB_API_URL = 'https://api.github.com';

/** `owner/name` as GitHub spells a repository. */
export const GITHUB_REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;

export interface GithubAccount {
  apiUrl: string;
  /** A fine-grained token (Issues: read and write; Members: read for teams) or a classic one (repo, read:org). */
  token: string;
  /** The repositories approval issues may be opened in, lower-cased `owner/name`: the admin's list, nothing else. */
  repositories: Set<string>;
}

/**
 * Accounts: `APPROVALS_GITHUB_TOKEN` + `APPROVALS_GITHUB_REPOSITORIES` (+ optional `APPROVALS_GITHUB_API_URL`)
 * for the default one, `APPROVALS_GITHUB_<NAME>_TOKEN`, `_REPOSITORIES`, `_API_URL` for named ones, chosen with
 * `account:`. Not `GITHUB_*`: a collection's build trigger owns that family.
 */
export const GITHUB_FAMILY = { prefix: 'APPROVALS_GITHUB', settings: ['TOKEN', 'REPOSITORIES', 'API_URL'] };

export const GITHUB_ACCOUNTS: UpstreamKind = {
  provider: 'GitHub',
  scope: 'github',
  field: 'account',
  enable: 'APPROVALS_GITHUB_TOKEN and APPROVALS_GITHUB_REPOSITORIES',
  variablesFor: (name) => `APPROVALS_GITHUB_${name}_TOKEN and APPROVALS_GITHUB_${name}_REPOSITORIES`,
};

const repositoriesProblem = (value: string) =>
  value.split(/[\s,]+/).every((r) => r === '' || GITHUB_REPOSITORY.test(r))
    ? undefined
    : 'must be repositories as owner/name, separated by commas or spaces';

export interface GithubAccountsRead {
  accounts: Map<string, GithubAccount>;
  /** Each names a variable, never its value. */
  problems: string[];
}

export function readGithubAccounts(source: EnvSource): GithubAccountsRead {
  const { upstreams, problems } = readUpstreams(source, GITHUB_FAMILY);
  const accounts = new Map<string, GithubAccount>();
  for (const [name, given] of upstreams) {
    const checked = checkSettings(given, {
      TOKEN: credentialProblem,
      REPOSITORIES: repositoriesProblem,
      API_URL: httpUrlProblem,
    });
    problems.push(...checked.problems);
    const { TOKEN: token, REPOSITORIES: repositories, API_URL: apiUrl } = given.values;
    const set = GITHUB_FAMILY.settings.find((s) => given.values[s] !== undefined)!;
    for (const required of ['TOKEN', 'REPOSITORIES'])
      if (given.values[required] === undefined)
        problems.push(`${given.variable(required)}: is required with ${given.variable(set)}`);
    if (token !== undefined && repositories !== undefined && checked.failed.size === 0)
      accounts.set(name, {
        token,
        apiUrl: (apiUrl ?? GITHUB_API_URL).replace(/\/+$/, ''),
        repositories: new Set(
          repositories
            .toLowerCase()
            .split(/[\s,]+/)
            .filter((r) => r !== ''),
        ),
      });
  }
  return { accounts, problems };
}
