import { defineAwsProvider } from '../../aws/aws-provider.js';
import { BATCH_FAMILY } from './batch-settings.js';

/** AWS Batch: a job (or an array job) on a job queue. */
export const batch = defineAwsProvider({
  key: 'batch',
  label: 'AWS Batch',
  family: BATCH_FAMILY,
  load: async () => (await import('./batch.provider.js')).batchModule,
});
