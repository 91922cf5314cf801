import { describeProviderTable } from '@app/local-agent/provider-table-checks.js';
import { buildTriggerPlugin } from '../build-trigger.plugin.js';
import { PROVIDERS } from './index.js';

describeProviderTable({
  app: 'build-trigger',
  key: buildTriggerPlugin.key,
  envPrefixes: buildTriggerPlugin.envPrefixes ?? [],
  table: PROVIDERS,
});
