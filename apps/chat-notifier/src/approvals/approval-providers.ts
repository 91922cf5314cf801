import type { ApprovalModule, ApprovalProvider } from './approval-provider.js';

/**
 * The providers an `approve` block may name, one row each (the docs' table lists them with the ones that
 * cannot be supported). A row's module loads with the plugin's module on the first call.
 */
export const APPROVAL_PROVIDERS: readonly ApprovalProvider[] = [
  {
    key: 'slack',
    load: async () =>
      (await import('../providers/slack/approvals/slack-approvals.module.js'))
        .slackApprovals as ApprovalModule,
  },
  {
    key: 'mattermost',
    load: async () =>
      (await import('../providers/mattermost/mattermost-approvals.module.js'))
        .mattermostApprovals as ApprovalModule,
  },
  {
    key: 'discord',
    load: async () =>
      (await import('../providers/discord/discord-approvals.module.js')).discordApprovals as ApprovalModule,
  },
  {
    key: 'github',
    load: async () =>
      (await import('../providers/github/github-approvals.module.js')).githubApprovals as ApprovalModule,
  },
];
