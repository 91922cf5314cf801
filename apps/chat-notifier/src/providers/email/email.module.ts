import type { ProviderModule } from '../provider-definition.js';
import { EmailConfig } from './email-config.dto.js';
import { EmailProvider } from './email.provider.js';

export const emailModule: ProviderModule<EmailConfig> = { config: EmailConfig, provider: EmailProvider };
