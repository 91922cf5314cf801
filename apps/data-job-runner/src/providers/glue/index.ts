import { defineAwsProvider } from '../../aws/aws-provider.js';
import { GLUE_FAMILY } from './glue-settings.js';

/** AWS Glue: a run of a Glue job. */
export const glue = defineAwsProvider({
  key: 'glue',
  label: 'Glue',
  family: GLUE_FAMILY,
  load: async () => (await import('./glue.provider.js')).glueModule,
});
