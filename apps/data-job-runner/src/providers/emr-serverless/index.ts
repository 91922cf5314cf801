import { defineAwsProvider } from '../../aws/aws-provider.js';
import { EMR_SERVERLESS_FAMILY } from './emr-serverless-settings.js';

/** Amazon EMR Serverless: a Spark or Hive job run on an application. */
export const emrServerless = defineAwsProvider({
  key: 'emrServerless',
  label: 'EMR Serverless',
  family: EMR_SERVERLESS_FAMILY,
  load: async () => (await import('./emr-serverless.provider.js')).emrServerlessModule,
});
