import type { ProviderModule } from '../notifier-provider.js';
import { GoogleChatConfig } from './google-chat-config.dto.js';
import { GoogleChatProvider } from './google-chat.provider.js';

export const googleChatModule: ProviderModule<GoogleChatConfig> = {
  config: GoogleChatConfig,
  provider: GoogleChatProvider,
};
