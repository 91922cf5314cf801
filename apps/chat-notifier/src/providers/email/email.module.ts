import type { ProviderModule } from '../notifier-provider.js';
import { EmailConfig } from './email-block.dto.js';
import { EmailProvider } from './email.provider.js';

export const emailModule: ProviderModule<EmailConfig> = { block: EmailConfig, provider: EmailProvider };
