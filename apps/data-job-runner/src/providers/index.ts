import { ProviderTable, type ProviderBlocksOf } from '@app/plugin-kit';
import type { DataJobProviderDefinition } from './data-job-provider.js';
import { airflow } from './airflow/index.js';
import { databricks } from './databricks/index.js';
import { dbtCloud } from './dbt-cloud/index.js';
import { livy } from './livy/index.js';
import { stepFunctions } from './step-functions/index.js';
import { emrServerless } from './emr-serverless/index.js';
import { batch } from './batch/index.js';
import { glue } from './glue/index.js';
import { sagemakerPipelines } from './sagemaker-pipelines/index.js';
import { snowflake } from './snowflake/index.js';
import { dataproc } from './dataproc/index.js';
import { cloudRun } from './cloud-run/index.js';
import { vertexPipelines } from './vertex-pipelines/index.js';
import { dataFactory } from './data-factory/index.js';

/**
 * The data-job runner's providers, in the order of the docs: a provider is its folder under providers/ and its
 * line here. The sidecar's variables, the connections, the body's provider blocks and a collection's families
 * come from this list.
 */
const DEFINITIONS = {
  databricks,
  airflow,
  dbtCloud,
  livy,
  stepFunctions,
  emrServerless,
  batch,
  glue,
  sagemakerPipelines,
  snowflake,
  dataproc,
  cloudRun,
  vertexPipelines,
  dataFactory,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own variables and connections
export const PROVIDERS = new ProviderTable<DataJobProviderDefinition<any, any>>(Object.values(DEFINITIONS));

/** Every connection the admin configured, by provider and connection name (`default` for the unnamed one). */
export type Connections = {
  [K in keyof typeof DEFINITIONS]: Map<
    string,
    (typeof DEFINITIONS)[K] extends DataJobProviderDefinition<object, infer C> ? C : never
  >;
};

/** The body's provider blocks, by key, each of its provider's block class (one of them is given). */
export type ProviderBlocks = ProviderBlocksOf<typeof DEFINITIONS>;
