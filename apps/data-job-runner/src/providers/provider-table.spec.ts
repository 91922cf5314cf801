import { describeProviderTable } from '@app/local-agent/provider-table-checks.js';
import { dataJobPlugin } from '../data-job.plugin.js';
import { PROVIDERS } from './index.js';

describeProviderTable({
  app: 'data-job-runner',
  key: dataJobPlugin.key,
  envPrefixes: dataJobPlugin.envPrefixes ?? [],
  table: PROVIDERS,
});
