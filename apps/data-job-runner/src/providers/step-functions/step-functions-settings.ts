import { awsFamily } from '../../aws/aws-settings.js';

/** `STEP_FUNCTIONS_REGION`, ..., and `STEP_FUNCTIONS_<NAME>_REGION` for named connections. */
export const STEP_FUNCTIONS_FAMILY = awsFamily('STEP_FUNCTIONS');
