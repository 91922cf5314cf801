// The data-job runner's Snowflake, Google (Dataproc, Cloud Run, Vertex AI) and Azure Data Factory backends, each
// stand-in seeded with one job that runs until it is cancelled. Data Factory's identity stand-in speaks only
// HTTPS: on a stack's HOST_ADDR it serves the certificate `setStandInHost` was given.
import { generateKeyPairSync } from 'node:crypto';
import {
  CloudRunStandIn,
  DataFactoryStandIn,
  DataprocStandIn,
  SnowflakeStandIn,
  VertexPipelinesStandIn,
} from '../../../data-job-runner/stand-ins/index.js';
import { dataJob, FOREVER, type LongJob } from './long-job.js';

type CloudBackend = 'snowflake' | 'dataproc' | 'cloudRun' | 'vertexPipelines' | 'dataFactory';

const SNOWFLAKE = { account: 'stoporg-analytics', user: 'ARGO_RUNNER' };
const GOOGLE = {
  project: 'stop-etl-123',
  region: 'europe-west1',
  account: 'argo-runner@stop-etl-123.iam.gserviceaccount.com',
  keyId: 'stop-key-1',
};
const AZURE = {
  subscriptionId: '6f1d2c3b-4a59-4e68-8d7c-0b1a2c3d4e5f',
  resourceGroup: 'rg-stop',
  factory: 'adf-stop',
  tenantId: '3c2b1a09-8f7e-4d6c-9b5a-493827160f1e',
  clientId: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
  clientSecret: 'adf~stop~0a1b2c3d4e5f60718293a4b5c6d7e8f9',
};

const rsaPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

export function longCloudJobs(): Record<CloudBackend, LongJob> {
  const snowflakeKeys = rsaPair();
  const snowflake = new SnowflakeStandIn({
    ...SNOWFLAKE,
    publicKey: snowflakeKeys.publicKey,
    lifecycle: [{ state: 'running', ...FOREVER }, { state: 'success' }],
  });

  const google = rsaPair();
  const serviceAccount = { clientEmail: GOOGLE.account, keyId: GOOGLE.keyId, publicKey: google.publicKey };
  const where = { project: GOOGLE.project, region: GOOGLE.region, serviceAccount };
  /** The service account's key file, its token_uri the stand-in's token endpoint. */
  const keyFile = (tokenUri: string) =>
    JSON.stringify({
      type: 'service_account',
      project_id: GOOGLE.project,
      private_key_id: GOOGLE.keyId,
      private_key: google.privateKey,
      client_email: GOOGLE.account,
      token_uri: tokenUri,
    });
  const dataproc = new DataprocStandIn({
    ...where,
    lifecycle: [{ state: 'RUNNING', ...FOREVER }, { state: 'SUCCEEDED' }],
  });
  const cloudRun = new CloudRunStandIn({
    ...where,
    jobs: [
      {
        name: 'forever',
        containers: [{ name: 'job', image: 'europe-docker.pkg.dev/stop-etl-123/jobs/forever:1.0' }],
        lifecycle: [{ state: 'RUNNING', ...FOREVER }, { state: 'SUCCEEDED' }],
      },
    ],
  });
  const vertex = new VertexPipelinesStandIn({
    ...where,
    lifecycle: [{ state: 'PIPELINE_STATE_RUNNING', ...FOREVER }, { state: 'PIPELINE_STATE_SUCCEEDED' }],
  });

  const dataFactory = new DataFactoryStandIn({
    subscriptionId: AZURE.subscriptionId,
    resourceGroup: AZURE.resourceGroup,
    factory: AZURE.factory,
    tenantId: AZURE.tenantId,
    apps: [{ clientId: AZURE.clientId, clientSecret: AZURE.clientSecret }],
    pipelines: [
      {
        name: 'forever',
        parameters: ['argoExecutionKey'],
        lifecycle: [{ state: 'InProgress', ...FOREVER }, { state: 'Succeeded' }],
      },
    ],
  });

  const googleEnv = (prefix: string, standIn: { url: string; tokenUri: string }) => ({
    [`${prefix}_PROJECT`]: GOOGLE.project,
    [`${prefix}_REGION`]: GOOGLE.region,
    [`${prefix}_URL`]: standIn.url,
    [`${prefix}_CREDENTIALS`]: keyFile(standIn.tokenUri),
  });
  return {
    snowflake: {
      standIn: snowflake,
      env: () => ({
        SNOWFLAKE_ACCOUNT: SNOWFLAKE.account,
        SNOWFLAKE_URL: snowflake.url,
        SNOWFLAKE_USER: SNOWFLAKE.user,
        SNOWFLAKE_PRIVATE_KEY: snowflakeKeys.privateKey,
      }),
      plugin: (key) => dataJob(key, { snowflake: { statement: 'CALL forever()' } }),
      cancels: () => snowflake.server.count('POST', /^\/api\/v2\/statements\/[^/]+\/cancel$/),
    },
    dataproc: {
      standIn: dataproc,
      env: () => googleEnv('DATAPROC', dataproc),
      plugin: (key) =>
        dataJob(key, {
          dataproc: { batch: { pysparkBatch: { mainPythonFileUri: 'gs://jobs/forever.py' } } },
        }),
      cancels: () => dataproc.server.count('POST', /\/operations\/[^/]+:cancel$/),
    },
    cloudRun: {
      standIn: cloudRun,
      env: () => googleEnv('CLOUD_RUN', cloudRun),
      plugin: (key) => dataJob(key, { cloudRun: { job: 'forever' } }),
      cancels: () => cloudRun.server.count('POST', /\/jobs\/forever\/executions\/[^/]+:cancel$/),
    },
    vertexPipelines: {
      standIn: vertex,
      env: () => googleEnv('VERTEX_PIPELINES', vertex),
      plugin: (key) =>
        dataJob(key, {
          vertexPipelines: {
            pipelineJob: {
              templateUri: 'https://europe-west1-kfp.pkg.dev/stop-etl-123/pipelines/forever/v1',
            },
          },
        }),
      cancels: () => vertex.server.count('POST', /\/pipelineJobs\/[^/]+:cancel$/),
    },
    dataFactory: {
      standIn: dataFactory,
      env: () => ({
        DATA_FACTORY_SUBSCRIPTION_ID: AZURE.subscriptionId,
        DATA_FACTORY_RESOURCE_GROUP: AZURE.resourceGroup,
        DATA_FACTORY_FACTORY: AZURE.factory,
        DATA_FACTORY_TENANT_ID: AZURE.tenantId,
        DATA_FACTORY_CLIENT_ID: AZURE.clientId,
        DATA_FACTORY_CLIENT_SECRET: AZURE.clientSecret,
        DATA_FACTORY_URL: dataFactory.url,
        DATA_FACTORY_AUTHORITY_HOST: dataFactory.tokens.url,
        DATA_FACTORY_CA_FILE: dataFactory.tokens.caFile,
      }),
      plugin: (key) => dataJob(key, { dataFactory: { pipeline: 'forever' } }),
      cancels: () => dataFactory.server.count('POST', /\/pipelineruns\/[^/]+\/cancel$/),
    },
  };
}
