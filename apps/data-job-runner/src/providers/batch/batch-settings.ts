import { awsFamily } from '../../aws/aws-settings.js';

/** `BATCH_REGION`, ..., and `BATCH_<NAME>_REGION` for named connections. */
export const BATCH_FAMILY = awsFamily('BATCH');
