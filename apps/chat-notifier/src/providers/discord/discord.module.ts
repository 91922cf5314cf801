import type { ProviderModule } from '../notifier-provider.js';
import { DiscordConfig } from './discord-block.dto.js';
import { DiscordProvider } from './discord.provider.js';

export const discordModule: ProviderModule<DiscordConfig> = {
  block: DiscordConfig,
  provider: DiscordProvider,
};
