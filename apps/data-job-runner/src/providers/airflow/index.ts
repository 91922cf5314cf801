import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider, loginCredential, tokenCredential } from '../data-job-provider.js';
import { AIRFLOW_FAMILY, airflowVariables, readAirflow } from './airflow-settings.js';

/** Apache Airflow's REST API (v1 for Airflow 2, v2 for Airflow 3): a DAG run. */
export const airflow = defineDataJobProvider({
  key: 'airflow',
  label: 'Airflow',
  variables: airflowVariables,
  prefixes: ['AIRFLOW_'],
  enable: 'AIRFLOW_URL (+ credentials)',
  scopeKinds: ['airflow'],
  read: (_env, source) => readAirflow(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ airflow: connections.keys() }),
  credentials: (connections) =>
    [...connections.values()].flatMap((c) => [...tokenCredential(c.token), ...loginCredential(c)]),
  upstreams: upstreamKind(
    'airflow',
    'connection',
    AIRFLOW_FAMILY,
    (v) => `${v('URL')} and ${v('USERNAME')}/${v('PASSWORD')} or ${v('TOKEN')}`,
  ),
  load: async () => (await import('./airflow.provider.js')).airflowModule,
});
