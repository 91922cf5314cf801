import { upstreamKind } from '@app/plugin-kit';
import { awsCredentials, readAws, type AwsConnection } from '../../aws/aws-settings.js';
import { defineDataJobProvider } from '../data-job-provider.js';
import { EMR_SERVERLESS_FAMILY, emrServerlessVariables } from './emr-serverless-settings.js';

/** Amazon EMR Serverless: a Spark or Hive job run on an application. */
export const emrServerless = defineDataJobProvider<object, AwsConnection>({
  key: 'emrServerless',
  label: 'EMR Serverless',
  variables: emrServerlessVariables,
  prefixes: ['EMR_SERVERLESS_'],
  enable: 'EMR_SERVERLESS_REGION',
  scopeKinds: ['emrServerless'],
  read: (_env, source) => readAws(source, EMR_SERVERLESS_FAMILY),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ emrServerless: connections.keys() }),
  credentials: awsCredentials,
  upstreams: upstreamKind('emrServerless', 'connection', EMR_SERVERLESS_FAMILY, (v) => v('REGION')),
  load: async () => (await import('./emr-serverless.provider.js')).emrServerlessModule,
});
