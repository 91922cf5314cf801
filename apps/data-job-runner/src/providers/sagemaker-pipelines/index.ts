import { upstreamKind } from '@app/plugin-kit';
import { awsCredentials, readAws, type AwsConnection } from '../../aws/aws-settings.js';
import { defineDataJobProvider } from '../data-job-provider.js';
import { SAGEMAKER_PIPELINES_FAMILY, sagemakerPipelinesVariables } from './sagemaker-pipelines-settings.js';

/** Amazon SageMaker Pipelines: an execution of a pipeline. */
export const sagemakerPipelines = defineDataJobProvider<object, AwsConnection>({
  key: 'sagemakerPipelines',
  label: 'SageMaker Pipelines',
  variables: sagemakerPipelinesVariables,
  prefixes: ['SAGEMAKER_PIPELINES_'],
  enable: 'SAGEMAKER_PIPELINES_REGION',
  scopeKinds: ['sagemakerPipelines'],
  read: (_env, source) => readAws(source, SAGEMAKER_PIPELINES_FAMILY),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ sagemakerPipelines: connections.keys() }),
  credentials: awsCredentials,
  upstreams: upstreamKind('sagemakerPipelines', 'connection', SAGEMAKER_PIPELINES_FAMILY, (v) => v('REGION')),
  load: async () => (await import('./sagemaker-pipelines.provider.js')).sagemakerPipelinesModule,
});
