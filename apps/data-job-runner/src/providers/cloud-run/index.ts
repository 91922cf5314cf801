import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider } from '../data-job-provider.js';
import { CLOUD_RUN_FAMILY, cloudRunVariables, readCloudRun } from './cloud-run-settings.js';

/** Google Cloud Run jobs: one execution of a job, with overrides. */
export const cloudRun = defineDataJobProvider({
  key: 'cloudRun',
  label: 'Cloud Run',
  variables: cloudRunVariables,
  prefixes: ['CLOUD_RUN_'],
  enable: 'CLOUD_RUN_PROJECT+CLOUD_RUN_REGION+CLOUD_RUN_CREDENTIALS',
  scopeKinds: ['cloudRun'],
  read: (_env, source) => readCloudRun(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ cloudRun: connections.keys() }),
  credentials: (connections) =>
    [...connections.values()].flatMap((c) =>
      c.credentials.privateKey ? [{ secret: c.credentials.privateKey }] : [],
    ),
  upstreams: upstreamKind(
    'cloudRun',
    'connection',
    CLOUD_RUN_FAMILY,
    (v) => `${v('PROJECT')}, ${v('REGION')} and ${v('CREDENTIALS')}`,
  ),
  load: async () => (await import('./cloud-run.provider.js')).cloudRunModule,
});
