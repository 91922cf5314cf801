import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider, tokenCredential } from '../data-job-provider.js';
import { DBT_CLOUD_FAMILY, dbtCloudVariables, readDbtCloud } from './dbt-cloud-settings.js';

/** dbt Cloud's Administrative API: a job run. */
export const dbtCloud = defineDataJobProvider({
  key: 'dbtCloud',
  label: 'dbt Cloud',
  variables: dbtCloudVariables,
  prefixes: ['DBT_CLOUD_'],
  enable: 'DBT_CLOUD_ACCOUNT_ID+DBT_CLOUD_API_TOKEN',
  scopeKinds: ['dbtCloud'],
  read: (_env, source) => readDbtCloud(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ dbtCloud: connections.keys() }),
  credentials: (connections) => [...connections.values()].flatMap((c) => tokenCredential(c.token)),
  upstreams: upstreamKind(
    'dbtCloud',
    'connection',
    DBT_CLOUD_FAMILY,
    (v) => `${v('ACCOUNT_ID')} and ${v('API_TOKEN')}`,
  ),
  load: async () => (await import('./dbt-cloud.provider.js')).dbtCloudModule,
});
