import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider, tokenCredential } from '../data-job-provider.js';
import { DATABRICKS_FAMILY, databricksVariables, readDatabricks } from './databricks-settings.js';

/** Databricks Jobs: a job run (`run-now`) or a one-time run (`runs/submit`). */
export const databricks = defineDataJobProvider({
  key: 'databricks',
  label: 'Databricks',
  variables: databricksVariables,
  prefixes: ['DATABRICKS_'],
  enable: 'DATABRICKS_HOST+DATABRICKS_TOKEN',
  scopeKinds: ['databricks'],
  read: (_env, source) => readDatabricks(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ databricks: connections.keys() }),
  credentials: (connections) => [...connections.values()].flatMap((c) => tokenCredential(c.token)),
  upstreams: upstreamKind(
    'databricks',
    'connection',
    DATABRICKS_FAMILY,
    (v) => `${v('HOST')} and ${v('TOKEN')}`,
  ),
  load: async () => (await import('./databricks.provider.js')).databricksModule,
});
