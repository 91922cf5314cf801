import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider } from '../data-job-provider.js';
import { DATAPROC_FAMILY, dataprocVariables, readDataproc } from './dataproc-settings.js';

/** Google Cloud Dataproc Serverless: a Spark batch. */
export const dataproc = defineDataJobProvider({
  key: 'dataproc',
  label: 'Dataproc',
  variables: dataprocVariables,
  prefixes: ['DATAPROC_'],
  enable: 'DATAPROC_PROJECT+DATAPROC_REGION+DATAPROC_CREDENTIALS',
  scopeKinds: ['dataproc'],
  read: (_env, source) => readDataproc(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ dataproc: connections.keys() }),
  credentials: (connections) =>
    [...connections.values()].flatMap((c) =>
      c.credentials.privateKey ? [{ secret: c.credentials.privateKey }] : [],
    ),
  upstreams: upstreamKind(
    'dataproc',
    'connection',
    DATAPROC_FAMILY,
    (v) => `${v('PROJECT')}, ${v('REGION')} and ${v('CREDENTIALS')}`,
  ),
  load: async () => (await import('./dataproc.provider.js')).dataprocModule,
});
