import { definePlugin } from '@app/plugin-kit';
import { DataJobEnv } from './config/data-job.env.js';

/** Runs Databricks jobs, Airflow DAGs, dbt Cloud jobs and Spark batches (Livy) and waits for them. */
export const dataJobPlugin = definePlugin({
  name: 'data-job-runner',
  key: 'data-job',
  port: 10422,
  env: DataJobEnv,
  envPrefixes: ['DATABRICKS_', 'AIRFLOW_', 'DBT_CLOUD_', 'LIVY_'],
  load: async () => (await import('./data-job.module.js')).DataJobModule,
});
