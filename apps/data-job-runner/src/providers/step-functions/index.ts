import { upstreamKind } from '@app/plugin-kit';
import { awsCredentials, readAws, type AwsConnection } from '../../aws/aws-settings.js';
import { defineDataJobProvider } from '../data-job-provider.js';
import { STEP_FUNCTIONS_FAMILY, stepFunctionsVariables } from './step-functions-settings.js';

/** AWS Step Functions: an execution of a Standard state machine. */
export const stepFunctions = defineDataJobProvider<object, AwsConnection>({
  key: 'stepFunctions',
  label: 'Step Functions',
  variables: stepFunctionsVariables,
  prefixes: ['STEP_FUNCTIONS_'],
  enable: 'STEP_FUNCTIONS_REGION',
  scopeKinds: ['stepFunctions'],
  read: (_env, source) => readAws(source, STEP_FUNCTIONS_FAMILY),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ stepFunctions: connections.keys() }),
  credentials: awsCredentials,
  upstreams: upstreamKind('stepFunctions', 'connection', STEP_FUNCTIONS_FAMILY, (v) => v('REGION')),
  load: async () => (await import('./step-functions.provider.js')).stepFunctionsModule,
});
