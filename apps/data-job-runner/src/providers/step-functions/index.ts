import { defineAwsProvider } from '../../aws/aws-provider.js';
import { STEP_FUNCTIONS_FAMILY } from './step-functions-settings.js';

/** AWS Step Functions: an execution of a Standard state machine. */
export const stepFunctions = defineAwsProvider({
  key: 'stepFunctions',
  label: 'Step Functions',
  family: STEP_FUNCTIONS_FAMILY,
  load: async () => (await import('./step-functions.provider.js')).stepFunctionsModule,
});
