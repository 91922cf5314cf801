import { upstreamKind } from '@app/plugin-kit';
import { awsCredentials, readAws, type AwsConnection } from '../../aws/aws-settings.js';
import { defineDataJobProvider } from '../data-job-provider.js';
import { GLUE_FAMILY, glueVariables } from './glue-settings.js';

/** AWS Glue: a run of a Glue job. */
export const glue = defineDataJobProvider<object, AwsConnection>({
  key: 'glue',
  label: 'Glue',
  variables: glueVariables,
  prefixes: ['GLUE_'],
  enable: 'GLUE_REGION',
  scopeKinds: ['glue'],
  read: (_env, source) => readAws(source, GLUE_FAMILY),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ glue: connections.keys() }),
  credentials: awsCredentials,
  upstreams: upstreamKind('glue', 'connection', GLUE_FAMILY, (v) => v('REGION')),
  load: async () => (await import('./glue.provider.js')).glueModule,
});
