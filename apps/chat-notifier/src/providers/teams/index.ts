import { DEFAULT_UPSTREAM, defineProvider } from '@app/plugin-kit';
import { readTeamsSettings, teamsVariables } from './teams-settings.js';

/** Microsoft Teams through Workflows webhooks, or through the admin's bot. */
export const teams = defineProvider({
  key: 'teams',
  variables: teamsVariables,
  prefixes: ['TEAMS_'],
  enable: 'TEAMS_WEBHOOK_URL or TEAMS_BOT_APP_ID + TEAMS_BOT_APP_PASSWORD',
  scopeKinds: ['teams', 'teamsBot'],
  read: readTeamsSettings,
  configured: (s) => s.webhooks.size > 0 || s.bot !== undefined,
  destinations: (s) => ({ teams: s.webhooks.keys(), teamsBot: s.bot ? [DEFAULT_UPSTREAM] : [] }),
  load: async () => (await import('./teams.provider.js')).teamsModule,
});
