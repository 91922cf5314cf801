import { upstreamKind } from '@app/plugin-kit';
import { awsCredentials, readAws, type AwsConnection } from '../../aws/aws-settings.js';
import { defineDataJobProvider } from '../data-job-provider.js';
import { BATCH_FAMILY, batchVariables } from './batch-settings.js';

/** AWS Batch: a job (or an array job) on a job queue. */
export const batch = defineDataJobProvider<object, AwsConnection>({
  key: 'batch',
  label: 'AWS Batch',
  variables: batchVariables,
  prefixes: ['BATCH_'],
  enable: 'BATCH_REGION',
  scopeKinds: ['batch'],
  read: (_env, source) => readAws(source, BATCH_FAMILY),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ batch: connections.keys() }),
  credentials: awsCredentials,
  upstreams: upstreamKind('batch', 'connection', BATCH_FAMILY, (v) => v('REGION')),
  load: async () => (await import('./batch.provider.js')).batchModule,
});
