import type { ProviderModule } from '../notifier-provider.js';
import { TeamsConfig } from './teams-block.dto.js';
import { TeamsProvider } from './teams.provider.js';

export const teamsModule: ProviderModule<TeamsConfig> = { block: TeamsConfig, provider: TeamsProvider };
