import { defineProvider } from '@app/plugin-kit';
import { emailVariables, readEmailSettings } from './email-settings.js';

/** Email through the admin's SMTP relay. */
export const email = defineProvider({
  key: 'email',
  variables: emailVariables,
  prefixes: ['SMTP_'],
  enable: 'SMTP_URL + SMTP_FROM',
  scopeKinds: ['email'],
  read: readEmailSettings,
  configured: (s) => s.servers.size > 0,
  destinations: (s) => ({ email: s.servers.keys() }),
  load: async () => (await import('./email.provider.js')).emailModule,
});
