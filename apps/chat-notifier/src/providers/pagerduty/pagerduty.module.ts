import type { ProviderModule } from '../notifier-provider.js';
import { PagerDutyConfig } from './pagerduty-block.dto.js';
import { PagerDutyProvider } from './pagerduty.provider.js';

export const pagerDutyModule: ProviderModule<PagerDutyConfig> = {
  block: PagerDutyConfig,
  provider: PagerDutyProvider,
};
