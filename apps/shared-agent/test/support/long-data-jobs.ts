// The data-job runner's first backends (Databricks, Airflow, dbt Cloud, Livy), each stand-in seeded with one job
// that runs until it is cancelled.
import {
  AirflowStandIn,
  DatabricksStandIn,
  DbtCloudStandIn,
  LivyStandIn,
} from '../../../data-job-runner/stand-ins/index.js';
import { dataJob, FOREVER, type LongJob } from './long-job.js';

const CREDENTIALS = {
  databricks: 'dapi-stop0a1b2c3d4e5f60718293a4b5c6d7',
  airflowUser: 'argo-runner',
  airflowPassword: 'airflow-stop-pw-0a1b2c3d',
  dbtAccount: 43786,
  dbtToken: 'dbtc_stopSTOPstopSTOPstop1234',
  livyUser: 'livy-runner',
  livyPassword: 'livy-stop-pw-9f8e7d6c',
} as const;

export function longDataJobs(): Record<'databricks' | 'airflow' | 'dbtCloud' | 'livy', LongJob> {
  const c = CREDENTIALS;
  const databricks = new DatabricksStandIn({ token: c.databricks }).addJob({
    jobId: 3001,
    name: 'forever',
    lifecycle: [{ state: 'RUNNING', ...FOREVER }, { state: 'TERMINATED/SUCCESS' }],
  });
  const airflow = new AirflowStandIn({ api: 'v2', username: c.airflowUser, password: c.airflowPassword });
  airflow.addDag({ dagId: 'forever', lifecycle: [{ state: 'running', ...FOREVER }, { state: 'success' }] });
  const dbt = new DbtCloudStandIn({ accountId: c.dbtAccount, token: c.dbtToken });
  dbt.addJob({ jobId: 3002, name: 'forever', lifecycle: [{ state: 3, ...FOREVER }, { state: 10 }] });
  const livy = new LivyStandIn({
    username: c.livyUser,
    password: c.livyPassword,
    lifecycle: [{ state: 'running', ...FOREVER }, { state: 'success' }],
  });
  return {
    databricks: {
      standIn: databricks,
      env: () => ({ DATABRICKS_HOST: databricks.url, DATABRICKS_TOKEN: c.databricks }),
      plugin: (key) => dataJob(key, { databricks: { jobId: 3001 } }),
      cancels: () => databricks.server.count('POST', /\/jobs\/runs\/cancel$/),
    },
    airflow: {
      standIn: airflow,
      env: () => ({
        AIRFLOW_URL: airflow.url,
        AIRFLOW_USERNAME: c.airflowUser,
        AIRFLOW_PASSWORD: c.airflowPassword,
      }),
      plugin: (key) => dataJob(key, { airflow: { dagId: 'forever' } }),
      cancels: () => airflow.server.count('PATCH', /\/dags\/forever\/dagRuns\//),
    },
    dbtCloud: {
      standIn: dbt,
      env: () => ({
        DBT_CLOUD_URL: dbt.url,
        DBT_CLOUD_ACCOUNT_ID: String(c.dbtAccount),
        DBT_CLOUD_API_TOKEN: c.dbtToken,
      }),
      plugin: (key) => dataJob(key, { dbtCloud: { jobId: 3002 } }),
      cancels: () => dbt.server.count('POST', /\/runs\/\d+\/cancel\/$/),
    },
    livy: {
      standIn: livy,
      env: () => ({ LIVY_URL: livy.url, LIVY_USERNAME: c.livyUser, LIVY_PASSWORD: c.livyPassword }),
      plugin: (key) => dataJob(key, { livy: { name: `forever-${key}`, file: 's3://jobs/forever.py' } }),
      cancels: () => livy.server.count('DELETE', /^\/batches\/\d+$/),
    },
  };
}
