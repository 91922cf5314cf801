import { defineProvider } from '@app/plugin-kit';
import { discordVariables, readDiscordSettings } from './discord-settings.js';

/** Discord through channel webhooks; approval gates through a bot. */
export const discord = defineProvider({
  key: 'discord',
  variables: discordVariables,
  prefixes: ['DISCORD_'],
  enable: 'DISCORD_WEBHOOK_URL',
  scopeKinds: ['discord', 'discordBot'],
  read: readDiscordSettings,
  configured: (s) => s.webhooks.size > 0 || s.bots.size > 0,
  destinations: (s) => ({ discord: s.webhooks.keys(), discordBot: s.bots.keys() }),
  load: async () => (await import('./discord.provider.js')).discordModule,
  approval: { load: async () => (await import('./discord-approval.module.js')).discordApproval },
});
