import { defineProvider } from '@app/plugin-kit';
import { readSlackSettings, slackVariables } from './slack-settings.js';

/** Slack through the Web API with a bot token per workspace. */
export const slack = defineProvider({
  key: 'slack',
  variables: slackVariables,
  prefixes: ['SLACK_'],
  enable: 'SLACK_BOT_TOKEN',
  scopeKinds: ['slack'],
  read: readSlackSettings,
  configured: (s) => s.workspaces.size > 0,
  destinations: (s) => ({ slack: s.workspaces.keys() }),
  load: async () => (await import('./slack.provider.js')).slackModule,
  approval: { load: async () => (await import('./slack-approval.module.js')).slackApproval },
});
