import { providerContextToken, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import type { ApprovalSlot } from '../../approvals/approval-channel.js';
import { JiraApprovalConfig } from './jira-approval-config.dto.js';
import { JiraApprovalChannels } from './jira-approval-channel.js';
import type { JiraSite } from './jira-settings.js';

/** Jira's approvals, on the admin's sites and projects. */
export const jiraApproval: ApprovalSlot<JiraApprovalConfig> = {
  block: JiraApprovalConfig,
  channels: {
    inject: [providerContextToken('jira')],
    useFactory: ({ settings, redactor, timeoutMs }: ProviderContext<ReadonlyMap<string, JiraSite>>) =>
      new JiraApprovalChannels(settings, redactor, timeoutMs),
  },
};
