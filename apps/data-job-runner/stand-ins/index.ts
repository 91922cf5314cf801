export * from './databricks.stand-in.js';
export * from './airflow.stand-in.js';
export * from './dbt-cloud.stand-in.js';
export * from './livy.stand-in.js';
