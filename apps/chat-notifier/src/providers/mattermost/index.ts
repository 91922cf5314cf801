import { defineProvider } from '@app/plugin-kit';
import { mattermostVariables, readMattermostSettings } from './mattermost-settings.js';

/** Mattermost through its REST API v4 with a bot token. */
export const mattermost = defineProvider({
  key: 'mattermost',
  variables: mattermostVariables,
  prefixes: ['MATTERMOST_'],
  enable: 'MATTERMOST_URL + MATTERMOST_TOKEN',
  scopeKinds: ['mattermost'],
  read: readMattermostSettings,
  configured: (s) => s.servers.size > 0,
  destinations: (s) => ({ mattermost: s.servers.keys() }),
  load: async () => (await import('./mattermost.provider.js')).mattermostModule,
  approval: { load: async () => (await import('./mattermost-approval.module.js')).mattermostApproval },
});
