import { awsFamily } from '../../aws/aws-settings.js';

/** `EMR_SERVERLESS_REGION`, ..., and `EMR_SERVERLESS_<NAME>_REGION` for named connections. */
export const EMR_SERVERLESS_FAMILY = awsFamily('EMR_SERVERLESS');
