import {
  ApprovalCallsPerMinute,
  OptionalCredential,
  OptionalSetting,
} from '../../shared/destination-settings.js';
import { defineProviderSettings, type EnvClass } from '@app/plugin-kit';
import { readGithubAccounts } from './github-settings.js';

export const githubVariables = (Base: EnvClass) => {
  class GithubVariables extends Base {
    /** A token with Issues read and write on the repositories (and Members read for teams). */
    @OptionalCredential()
    APPROVALS_GITHUB_TOKEN?: string;

    /** The repositories approval issues may be opened in (owner/name, comma- or space-separated). */
    @OptionalSetting()
    APPROVALS_GITHUB_REPOSITORIES?: string;

    /** The REST API's root: https://api.github.com unless set (GitHub Enterprise Server: https://<host>/api/v3). */
    @OptionalSetting()
    APPROVALS_GITHUB_API_URL?: string;

    /** Calls a minute the approval gates may make on each account (unset: 0.8 × its published limit). */
    @ApprovalCallsPerMinute()
    APPROVALS_GITHUB_CALLS_PER_MINUTE?: number;
  }
  return GithubVariables;
};

/** GitHub: approval gates only (an issue per request); nothing to `notify`. */
export const github = defineProviderSettings({
  key: 'github',
  variables: githubVariables,
  prefixes: ['APPROVALS_GITHUB_'],
  enable: 'APPROVALS_GITHUB_TOKEN and APPROVALS_GITHUB_REPOSITORIES',
  scopeKinds: ['github'],
  read: (_env, source) => {
    const { accounts, problems } = readGithubAccounts(source);
    return { settings: accounts, problems };
  },
  configured: (accounts) => accounts.size > 0,
  destinations: (accounts) => ({ github: accounts.keys() }),
  approval: { load: async () => (await import('./github-approval.module.js')).githubApproval },
});
