import { awsFamily } from '../../aws/aws-settings.js';

/** `GLUE_REGION`, ..., and `GLUE_<NAME>_REGION` for named connections. */
export const GLUE_FAMILY = awsFamily('GLUE');
