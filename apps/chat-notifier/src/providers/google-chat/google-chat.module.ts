import type { ProviderModule } from '../notifier-provider.js';
import { GoogleChatConfig } from './google-chat-block.dto.js';
import { GoogleChatProvider } from './google-chat.provider.js';

export const googleChatModule: ProviderModule<GoogleChatConfig> = {
  block: GoogleChatConfig,
  provider: GoogleChatProvider,
};
