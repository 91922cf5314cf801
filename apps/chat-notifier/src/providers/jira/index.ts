import {
  ApprovalCallsPerMinute,
  OptionalCredential,
  OptionalSetting,
} from '../../shared/destination-settings.js';
import { defineProviderSettings, type EnvClass } from '@app/plugin-kit';
import { readJiraSites } from './jira-settings.js';

export const jiraVariables = (Base: EnvClass) => {
  class JiraVariables extends Base {
    /** The Jira Cloud site: https://<site>.atlassian.net. */
    @OptionalSetting()
    APPROVALS_JIRA_URL?: string;

    /** The email of the Atlassian account the gates act as. */
    @OptionalSetting()
    APPROVALS_JIRA_EMAIL?: string;

    /** That account's API token (basic auth with the email). */
    @OptionalCredential()
    APPROVALS_JIRA_API_TOKEN?: string;

    /** The project keys approval issues may be opened or waited on in (comma- or space-separated). */
    @OptionalSetting()
    APPROVALS_JIRA_PROJECTS?: string;

    /** Calls a minute the approval gates may make on each site (unset: 0.8 × JIRA_CALLS_PER_MINUTE). */
    @ApprovalCallsPerMinute()
    APPROVALS_JIRA_CALLS_PER_MINUTE?: number;
  }
  return JiraVariables;
};

/** Jira Cloud: approval gates only (an issue's transition decides); nothing to `notify`. */
export const jira = defineProviderSettings({
  key: 'jira',
  variables: jiraVariables,
  prefixes: ['APPROVALS_JIRA_'],
  enable: 'APPROVALS_JIRA_URL, APPROVALS_JIRA_EMAIL, APPROVALS_JIRA_API_TOKEN and APPROVALS_JIRA_PROJECTS',
  scopeKinds: ['jira'],
  read: (_env, source) => {
    const { sites, problems } = readJiraSites(source);
    return { settings: sites, problems };
  },
  configured: (sites) => sites.size > 0,
  destinations: (sites) => ({ jira: sites.keys() }),
  approval: { load: async () => (await import('./jira-approval.module.js')).jiraApproval },
});
