import { defineProvider } from '@app/plugin-kit';
import { GOOGLE_CHAT_APP, googleChatVariables, readGoogleChatSettings } from './google-chat-settings.js';

/** Google Chat through incoming webhooks, or as the admin's Chat app. */
export const googleChat = defineProvider({
  key: 'googleChat',
  variables: googleChatVariables,
  prefixes: ['GOOGLE_CHAT_'],
  enable: 'GOOGLE_CHAT_WEBHOOK_URL or GOOGLE_CHAT_SERVICE_ACCOUNT_JSON',
  scopeKinds: ['googleChat'],
  read: readGoogleChatSettings,
  configured: (s) => s.webhooks.size > 0 || s.app !== undefined,
  destinations: (s) => ({ googleChat: [...s.webhooks.keys(), ...(s.app ? [GOOGLE_CHAT_APP] : [])] }),
  load: async () => (await import('./google-chat.provider.js')).googleChatModule,
});
