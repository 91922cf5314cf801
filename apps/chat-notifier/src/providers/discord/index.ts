import { defineProvider } from '../provider-definition.js';
import { discordVariables, readDiscordSettings } from './discord-settings.js';

/** Discord through channel webhooks. */
export const discord = defineProvider({
  key: 'discord',
  variables: discordVariables,
  prefixes: ['DISCORD_'],
  enable: 'DISCORD_WEBHOOK_URL',
  scopeKinds: ['discord'],
  read: readDiscordSettings,
  configured: (s) => s.webhooks.size > 0,
  destinations: (s) => ({ discord: s.webhooks.keys() }),
  load: async () => (await import('./discord.module.js')).discordModule,
});
