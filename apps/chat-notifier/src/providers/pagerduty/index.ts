import { defineProvider } from '@app/plugin-kit';
import { pagerDutyVariables, readPagerDutySettings } from './pagerduty-settings.js';

/** PagerDuty's Events API v2: trigger, acknowledge, resolve. */
export const pagerduty = defineProvider({
  key: 'pagerduty',
  variables: pagerDutyVariables,
  prefixes: ['PAGERDUTY_'],
  enable: 'PAGERDUTY_ROUTING_KEY',
  scopeKinds: ['pagerduty'],
  read: readPagerDutySettings,
  configured: (s) => s.services.size > 0,
  destinations: (s) => ({ pagerduty: s.services.keys() }),
  load: async () => (await import('./pagerduty.provider.js')).pagerDutyModule,
});
