import { definePlugin } from '@app/plugin-kit';
import { DataJobEnv } from './config/data-job.env.js';
import { PROVIDERS } from './providers/index.js';

/** Runs Databricks jobs, Airflow DAGs, dbt Cloud jobs, Spark batches (Livy), Snowflake statements and Dataproc batches, and waits for them. */
export const dataJobPlugin = definePlugin({
  name: 'data-job-runner',
  key: 'data-job',
  port: 10422,
  env: DataJobEnv,
  // Each provider's family: its named connections (DATABRICKS_<NAME>_HOST, LIVY_<NAME>_URL, ...).
  envPrefixes: PROVIDERS.prefixes,
  providers: PROVIDERS,
  load: async () => (await import('./data-job.module.js')).dataJobModule(),
});
