import type { ProviderModule } from '../notifier-provider.js';
import { MattermostConfig } from './mattermost-block.dto.js';
import { MattermostProvider } from './mattermost.provider.js';

export const mattermostModule: ProviderModule<MattermostConfig> = {
  block: MattermostConfig,
  provider: MattermostProvider,
};
