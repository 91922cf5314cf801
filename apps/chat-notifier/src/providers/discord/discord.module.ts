import type { ProviderModule } from '../provider-definition.js';
import { DiscordConfig } from './discord-config.dto.js';
import { DiscordProvider } from './discord.provider.js';

export const discordModule: ProviderModule<DiscordConfig> = {
  config: DiscordConfig,
  provider: DiscordProvider,
};
