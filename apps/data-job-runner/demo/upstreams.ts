import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AirflowStandIn } from '../stand-ins/airflow/airflow.stand-in.js';
import { DatabricksStandIn } from '../stand-ins/databricks/databricks.stand-in.js';
import { DbtCloudStandIn } from '../stand-ins/dbt-cloud/dbt-cloud.stand-in.js';
import { LivyStandIn } from '../stand-ins/livy/livy.stand-in.js';
import { BatchStandIn } from '../stand-ins/batch/batch.stand-in.js';
import { EmrServerlessStandIn } from '../stand-ins/emr-serverless/emr-serverless.stand-in.js';
import { GlueStandIn } from '../stand-ins/glue/glue.stand-in.js';
import { SageMakerPipelinesStandIn } from '../stand-ins/sagemaker-pipelines/sagemaker-pipelines.stand-in.js';
import { StepFunctionsStandIn } from '../stand-ins/step-functions/step-functions.stand-in.js';
import { SnowflakeStandIn } from '../stand-ins/snowflake/snowflake.stand-in.js';
import { DataprocStandIn } from '../stand-ins/dataproc/dataproc.stand-in.js';
import { CloudRunStandIn } from '../stand-ins/cloud-run/cloud-run.stand-in.js';
import { VertexPipelinesStandIn } from '../stand-ins/vertex-pipelines/vertex-pipelines.stand-in.js';
import { DataFactoryStandIn } from '../stand-ins/data-factory/data-factory.stand-in.js';

/** Credentials of the demo stand-ins (fake, loopback only). */
export const DEMO_CREDENTIALS = {
  databricksToken: 'dapi-demo0a1b2c3d4e5f60718293a4b5c6d7',
  airflowUser: 'argo-runner',
  airflowPassword: 'airflow-demo-pw-0a1b2c3d',
  dbtAccountId: 43786,
  dbtToken: 'dbtc_demoDEMOdemoDEMOdemo1234',
  livyUser: 'livy-runner',
  livyPassword: 'livy-demo-pw-9f8e7d6c',
  awsAccessKeyId: 'AKIADEMO0A1B2C3D4E5F',
  awsSecretAccessKey: 'aws-demo-secret/0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  dataFactoryClientSecret: 'adf~demo~0a1b2c3d4e5f60718293a4b5c6d7e8f9',
} as const;

/** What the examples in manifests/data-job-runner/examples use. */
export const DEMO_IDS = {
  databricksTransformJob: 1001,
  databricksRefreshJob: 1002,
  airflowIngestDag: 'ingest_orders',
  dbtModelsJob: 2001,
  stepFunctionsMachine: 'orders-load',
  emrServerlessApplication: '00fkjrmgjh8ph00p',
  batchQueue: 'scoring',
  glueJob: 'orders-curate',
  sagemakerPipeline: 'churn-train',
  snowflakeAccount: 'demoorg-analytics',
  snowflakeUser: 'ARGO_RUNNER',
  dataprocProject: 'demo-etl-123',
  dataprocRegion: 'europe-west1',
  dataprocAccount: 'argo-runner@demo-etl-123.iam.gserviceaccount.com',
  cloudRunJob: 'orders-export',
  dataFactorySubscription: '6f1d2c3b-4a59-4e68-8d7c-0b1a2c3d4e5f',
  dataFactoryResourceGroup: 'rg-demo-etl',
  dataFactoryName: 'adf-demo-etl',
  dataFactoryTenant: '3c2b1a09-8f7e-4d6c-9b5a-493827160f1e',
  dataFactoryClient: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
  dataFactoryPipeline: 'copy_orders',
} as const;

export interface DataJobDemoUpstreams {
  env: Record<string, string>;
  databricks: DatabricksStandIn;
  airflow: AirflowStandIn;
  dbt: DbtCloudStandIn;
  livy: LivyStandIn;
  stepFunctions: StepFunctionsStandIn;
  emrServerless: EmrServerlessStandIn;
  batch: BatchStandIn;
  glue: GlueStandIn;
  sagemakerPipelines: SageMakerPipelinesStandIn;
  snowflake: SnowflakeStandIn;
  /** The demo's Snowflake key pair is made at start: its private key is the one credential not above. */
  snowflakePrivateKey: string;
  dataproc: DataprocStandIn;
  /** The demo service account's key file (made at start, its token_uri the stand-in's token endpoint). */
  dataprocCredentials: string;
  cloudRun: CloudRunStandIn;
  /** The same service account's key file for Cloud Run (its token_uri that stand-in's token endpoint). */
  cloudRunCredentials: string;
  vertexPipelines: VertexPipelinesStandIn;
  /** The same service account's key file for Vertex AI (its token_uri that stand-in's token endpoint). */
  vertexPipelinesCredentials: string;
  dataFactory: DataFactoryStandIn;
  close(): Promise<void>;
}

/**
 * Starts the fourteen stand-ins on 127.0.0.1, seeded for the examples, with runs that finish after three polls
 * (fast under the demo's and the tests' time scale): Databricks jobs 1001 (a notebook that exits with a row
 * count) and 1002, Airflow 3 DAG ingest_orders (JWT auth, auto-detected), dbt Cloud job 2001, Livy with Basic auth,
 * Step Functions state machine orders-load, EMR Serverless application 00fkjrmgjh8ph00p, AWS Batch queue scoring,
 * Glue job orders-curate and SageMaker pipeline churn-train (SigV4 with the demo keys),
 * Snowflake with a key pair made here (statements finish after three polls), Dataproc Serverless with a service
 * account key made here whose token_uri is the stand-in's token endpoint, Cloud Run job orders-export with the
 * same service account, Vertex AI Pipelines with it too, Azure Data Factory pipeline copy_orders with a client
 * secret (its Microsoft Entra token endpoint over HTTPS with the loopback test certificate).
 * Returns the sidecar env pointing at them.
 */
export async function startDemoUpstreams(): Promise<DataJobDemoUpstreams> {
  const c = DEMO_CREDENTIALS;
  const databricks = new DatabricksStandIn({ token: c.databricksToken });
  databricks
    .addJob({
      jobId: DEMO_IDS.databricksTransformJob,
      name: 'orders_transform',
      tasks: [{ task_key: 'transform', notebook_task: { notebook_path: '/Repos/data/orders/transform' } }],
      notebookResult: '{"rows_written": 1234}',
      lifecycle: [
        { state: 'QUEUED', message: 'Queued due to reaching maximum concurrent runs of 1.' },
        { state: 'RUNNING' },
        { state: 'TERMINATED/SUCCESS' },
      ],
    })
    .addJob({
      jobId: DEMO_IDS.databricksRefreshJob,
      name: 'nightly_refresh',
      lifecycle: [{ state: 'PENDING' }, { state: 'RUNNING' }, { state: 'TERMINATED/SUCCESS' }],
    });

  const airflow = new AirflowStandIn({ api: 'v2', username: c.airflowUser, password: c.airflowPassword });
  airflow.addDag({
    dagId: DEMO_IDS.airflowIngestDag,
    lifecycle: [{ state: 'queued' }, { state: 'running' }, { state: 'success' }],
  });

  const dbt = new DbtCloudStandIn({ accountId: c.dbtAccountId, token: c.dbtToken });
  dbt.addJob({
    jobId: DEMO_IDS.dbtModelsJob,
    name: 'orders models',
    lifecycle: [{ state: 1 }, { state: 3 }, { state: 10 }],
  });

  const livy = new LivyStandIn({
    username: c.livyUser,
    password: c.livyPassword,
    lifecycle: [
      { state: 'starting' },
      { state: 'running', message: 'INFO DAGScheduler: Job 0 finished' },
      { state: 'success' },
    ],
  });

  const stepFunctions = new StepFunctionsStandIn({
    keys: [{ accessKeyId: c.awsAccessKeyId, secretAccessKey: c.awsSecretAccessKey }],
  });
  stepFunctions.addStateMachine({
    name: DEMO_IDS.stepFunctionsMachine,
    lifecycle: [{ state: 'RUNNING', polls: 2 }, { state: 'SUCCEEDED' }],
    output: '{"tablesLoaded": 2}',
  });

  const emrServerless = new EmrServerlessStandIn({
    keys: [{ accessKeyId: c.awsAccessKeyId, secretAccessKey: c.awsSecretAccessKey }],
  });
  emrServerless.addApplication({
    applicationId: DEMO_IDS.emrServerlessApplication,
    name: 'orders',
    lifecycle: [{ state: 'SCHEDULED' }, { state: 'RUNNING' }, { state: 'SUCCESS' }],
  });

  const batch = new BatchStandIn({
    keys: [{ accessKeyId: c.awsAccessKeyId, secretAccessKey: c.awsSecretAccessKey }],
  });
  batch.addQueue({
    name: DEMO_IDS.batchQueue,
    lifecycle: [{ state: 'RUNNABLE' }, { state: 'RUNNING' }, { state: 'SUCCEEDED' }],
  });

  const glue = new GlueStandIn({
    keys: [{ accessKeyId: c.awsAccessKeyId, secretAccessKey: c.awsSecretAccessKey }],
  });
  glue.addJob({
    name: DEMO_IDS.glueJob,
    lifecycle: [{ state: 'STARTING' }, { state: 'RUNNING' }, { state: 'SUCCEEDED' }],
  });

  const sagemakerPipelines = new SageMakerPipelinesStandIn({
    keys: [{ accessKeyId: c.awsAccessKeyId, secretAccessKey: c.awsSecretAccessKey }],
  });
  sagemakerPipelines.addPipeline({
    name: DEMO_IDS.sagemakerPipeline,
    lifecycle: [{ state: 'Executing', polls: 2 }, { state: 'Succeeded' }],
  });

  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const snowflake = new SnowflakeStandIn({
    account: DEMO_IDS.snowflakeAccount,
    user: DEMO_IDS.snowflakeUser,
    publicKey: keys.publicKey,
    lifecycle: [{ state: 'running', polls: 2 }, { state: 'success' }],
  });

  const google = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const dataproc = new DataprocStandIn({
    project: DEMO_IDS.dataprocProject,
    region: DEMO_IDS.dataprocRegion,
    serviceAccount: {
      clientEmail: DEMO_IDS.dataprocAccount,
      keyId: 'demo-key-1',
      publicKey: google.publicKey,
    },
    lifecycle: [{ state: 'PENDING' }, { state: 'RUNNING' }, { state: 'SUCCEEDED' }],
  });
  const cloudRun = new CloudRunStandIn({
    project: DEMO_IDS.dataprocProject,
    region: DEMO_IDS.dataprocRegion,
    serviceAccount: {
      clientEmail: DEMO_IDS.dataprocAccount,
      keyId: 'demo-key-1',
      publicKey: google.publicKey,
    },
    jobs: [
      {
        name: DEMO_IDS.cloudRunJob,
        containers: [
          {
            name: 'export',
            image: 'europe-docker.pkg.dev/demo-etl-123/jobs/orders-export:1.0',
            args: ['--all'],
          },
        ],
      },
    ],
  });

  const vertexPipelines = new VertexPipelinesStandIn({
    project: DEMO_IDS.dataprocProject,
    region: DEMO_IDS.dataprocRegion,
    serviceAccount: {
      clientEmail: DEMO_IDS.dataprocAccount,
      keyId: 'demo-key-1',
      publicKey: google.publicKey,
    },
    lifecycle: [
      { state: 'PIPELINE_STATE_PENDING' },
      { state: 'PIPELINE_STATE_RUNNING' },
      { state: 'PIPELINE_STATE_SUCCEEDED' },
    ],
  });

  const dataFactory = new DataFactoryStandIn({
    subscriptionId: DEMO_IDS.dataFactorySubscription,
    resourceGroup: DEMO_IDS.dataFactoryResourceGroup,
    factory: DEMO_IDS.dataFactoryName,
    tenantId: DEMO_IDS.dataFactoryTenant,
    apps: [{ clientId: DEMO_IDS.dataFactoryClient, clientSecret: c.dataFactoryClientSecret }],
    pipelines: [{ name: DEMO_IDS.dataFactoryPipeline, parameters: ['day', 'argoExecutionKey'] }],
  });

  await Promise.all([
    dataFactory.start(),
    databricks.start(),
    airflow.start(),
    dbt.start(),
    livy.start(),
    stepFunctions.start(),
    emrServerless.start(),
    batch.start(),
    glue.start(),
    sagemakerPipelines.start(),
    snowflake.start(),
    dataproc.start(),
    cloudRun.start(),
    vertexPipelines.start(),
  ]);
  const dataprocCredentials = JSON.stringify({
    type: 'service_account',
    project_id: DEMO_IDS.dataprocProject,
    private_key_id: 'demo-key-1',
    private_key: google.privateKey,
    client_email: DEMO_IDS.dataprocAccount,
    token_uri: dataproc.tokenUri,
  });
  const cloudRunCredentials = JSON.stringify({
    ...(JSON.parse(dataprocCredentials) as object),
    token_uri: cloudRun.tokenUri,
  });
  const vertexPipelinesCredentials = JSON.stringify({
    ...(JSON.parse(dataprocCredentials) as object),
    token_uri: vertexPipelines.tokenUri,
  });
  return {
    env: {
      DATABRICKS_HOST: databricks.url,
      DATABRICKS_TOKEN: c.databricksToken,
      AIRFLOW_URL: airflow.url,
      AIRFLOW_USERNAME: c.airflowUser,
      AIRFLOW_PASSWORD: c.airflowPassword,
      DBT_CLOUD_URL: dbt.url,
      DBT_CLOUD_ACCOUNT_ID: String(c.dbtAccountId),
      DBT_CLOUD_API_TOKEN: c.dbtToken,
      LIVY_URL: livy.url,
      LIVY_USERNAME: c.livyUser,
      LIVY_PASSWORD: c.livyPassword,
      STEP_FUNCTIONS_REGION: stepFunctions.region,
      STEP_FUNCTIONS_ENDPOINT_URL: stepFunctions.url,
      STEP_FUNCTIONS_ACCESS_KEY_ID: c.awsAccessKeyId,
      STEP_FUNCTIONS_SECRET_ACCESS_KEY: c.awsSecretAccessKey,
      EMR_SERVERLESS_REGION: emrServerless.region,
      EMR_SERVERLESS_ENDPOINT_URL: emrServerless.url,
      EMR_SERVERLESS_ACCESS_KEY_ID: c.awsAccessKeyId,
      EMR_SERVERLESS_SECRET_ACCESS_KEY: c.awsSecretAccessKey,
      BATCH_REGION: batch.region,
      BATCH_ENDPOINT_URL: batch.url,
      BATCH_ACCESS_KEY_ID: c.awsAccessKeyId,
      BATCH_SECRET_ACCESS_KEY: c.awsSecretAccessKey,
      GLUE_REGION: glue.region,
      GLUE_ENDPOINT_URL: glue.url,
      GLUE_ACCESS_KEY_ID: c.awsAccessKeyId,
      GLUE_SECRET_ACCESS_KEY: c.awsSecretAccessKey,
      SAGEMAKER_PIPELINES_REGION: sagemakerPipelines.region,
      SAGEMAKER_PIPELINES_ENDPOINT_URL: sagemakerPipelines.url,
      SAGEMAKER_PIPELINES_ACCESS_KEY_ID: c.awsAccessKeyId,
      SAGEMAKER_PIPELINES_SECRET_ACCESS_KEY: c.awsSecretAccessKey,
      SNOWFLAKE_ACCOUNT: DEMO_IDS.snowflakeAccount,
      SNOWFLAKE_URL: snowflake.url,
      SNOWFLAKE_USER: DEMO_IDS.snowflakeUser,
      SNOWFLAKE_PRIVATE_KEY: keys.privateKey,
      DATAPROC_PROJECT: DEMO_IDS.dataprocProject,
      DATAPROC_REGION: DEMO_IDS.dataprocRegion,
      DATAPROC_URL: dataproc.url,
      DATAPROC_CREDENTIALS: dataprocCredentials,
      CLOUD_RUN_PROJECT: DEMO_IDS.dataprocProject,
      CLOUD_RUN_REGION: DEMO_IDS.dataprocRegion,
      CLOUD_RUN_URL: cloudRun.url,
      CLOUD_RUN_CREDENTIALS: cloudRunCredentials,
      VERTEX_PIPELINES_PROJECT: DEMO_IDS.dataprocProject,
      VERTEX_PIPELINES_REGION: DEMO_IDS.dataprocRegion,
      VERTEX_PIPELINES_URL: vertexPipelines.url,
      VERTEX_PIPELINES_CREDENTIALS: vertexPipelinesCredentials,
      DATA_FACTORY_SUBSCRIPTION_ID: DEMO_IDS.dataFactorySubscription,
      DATA_FACTORY_RESOURCE_GROUP: DEMO_IDS.dataFactoryResourceGroup,
      DATA_FACTORY_FACTORY: DEMO_IDS.dataFactoryName,
      DATA_FACTORY_TENANT_ID: DEMO_IDS.dataFactoryTenant,
      DATA_FACTORY_CLIENT_ID: DEMO_IDS.dataFactoryClient,
      DATA_FACTORY_CLIENT_SECRET: c.dataFactoryClientSecret,
      DATA_FACTORY_URL: dataFactory.url,
      DATA_FACTORY_AUTHORITY_HOST: dataFactory.tokens.url,
      // The PEM, not a path: an agent pod's sidecar has no volumes of its own to mount a file from.
      DATA_FACTORY_CA_PEM: readFileSync(dataFactory.tokens.caFile, 'utf8'),
    },
    databricks,
    airflow,
    dbt,
    livy,
    stepFunctions,
    emrServerless,
    batch,
    glue,
    sagemakerPipelines,
    snowflake,
    snowflakePrivateKey: keys.privateKey,
    dataproc,
    dataprocCredentials,
    cloudRun,
    cloudRunCredentials,
    vertexPipelines,
    vertexPipelinesCredentials,
    dataFactory,
    close: async () => {
      await Promise.all([
        dataFactory.close(),
        databricks.close(),
        airflow.close(),
        dbt.close(),
        livy.close(),
        stepFunctions.close(),
        emrServerless.close(),
        batch.close(),
        glue.close(),
        sagemakerPipelines.close(),
        snowflake.close(),
        dataproc.close(),
        cloudRun.close(),
        vertexPipelines.close(),
      ]);
    },
  };
}
