import { defineAwsProvider } from '../../aws/aws-provider.js';
import { SAGEMAKER_PIPELINES_FAMILY } from './sagemaker-pipelines-settings.js';

/** Amazon SageMaker Pipelines: an execution of a pipeline. */
export const sagemakerPipelines = defineAwsProvider({
  key: 'sagemakerPipelines',
  label: 'SageMaker Pipelines',
  family: SAGEMAKER_PIPELINES_FAMILY,
  load: async () => (await import('./sagemaker-pipelines.provider.js')).sagemakerPipelinesModule,
});
