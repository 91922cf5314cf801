import { awsFamily } from '../../aws/aws-settings.js';

/** `SAGEMAKER_PIPELINES_REGION`, ..., and `SAGEMAKER_PIPELINES_<NAME>_REGION` for named connections. */
export const SAGEMAKER_PIPELINES_FAMILY = awsFamily('SAGEMAKER_PIPELINES');
