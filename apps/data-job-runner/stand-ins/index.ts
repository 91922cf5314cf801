export * from './databricks/databricks.stand-in.js';
export * from './airflow/airflow.stand-in.js';
export * from './dbt-cloud/dbt-cloud.stand-in.js';
export * from './livy/livy.stand-in.js';
export * from './snowflake/snowflake.stand-in.js';
export * from './dataproc/dataproc.stand-in.js';
export * from './cloud-run/cloud-run.stand-in.js';
export * from './vertex-pipelines/vertex-pipelines.stand-in.js';
