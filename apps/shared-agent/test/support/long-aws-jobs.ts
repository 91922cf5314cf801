// The data-job runner's AWS backends, each stand-in seeded with one job that runs until it is cancelled; all
// five accept the same SigV4 key.
import { BatchStandIn } from '../../../data-job-runner/stand-ins/batch/batch.stand-in.js';
import { EmrServerlessStandIn } from '../../../data-job-runner/stand-ins/emr-serverless/emr-serverless.stand-in.js';
import { GlueStandIn } from '../../../data-job-runner/stand-ins/glue/glue.stand-in.js';
import { SageMakerPipelinesStandIn } from '../../../data-job-runner/stand-ins/sagemaker-pipelines/sagemaker-pipelines.stand-in.js';
import { StepFunctionsStandIn } from '../../../data-job-runner/stand-ins/step-functions/step-functions.stand-in.js';
import { dataJob, FOREVER, type LongJob } from './long-job.js';

const KEY = {
  accessKeyId: 'AKIASTOP0A1B2C3D4E5F',
  secretAccessKey: 'aws-stop-secret/0a1b2c3d4e5f60718293a4b5c6',
};
const ROLE = 'arn:aws:iam::123456789012:role/emr-serverless-job-runtime';

type AwsBackend = 'stepFunctions' | 'emrServerless' | 'batch' | 'glue' | 'sagemakerPipelines';

/** The settings of one AWS backend (`<PREFIX>_REGION`, `_ENDPOINT_URL` and the key). */
const awsEnv = (prefix: string, standIn: { region: string; url: string }) => ({
  [`${prefix}_REGION`]: standIn.region,
  [`${prefix}_ENDPOINT_URL`]: standIn.url,
  [`${prefix}_ACCESS_KEY_ID`]: KEY.accessKeyId,
  [`${prefix}_SECRET_ACCESS_KEY`]: KEY.secretAccessKey,
});

export function longAwsJobs(): Record<AwsBackend, LongJob> {
  const keys = [KEY];
  const stepFunctions = new StepFunctionsStandIn({ keys });
  const machine = stepFunctions.addStateMachine({
    name: 'forever',
    lifecycle: [{ state: 'RUNNING', ...FOREVER }, { state: 'SUCCEEDED' }],
  });
  const emr = new EmrServerlessStandIn({ keys });
  const application = emr.addApplication({
    name: 'forever',
    lifecycle: [{ state: 'RUNNING', ...FOREVER }, { state: 'SUCCESS' }],
  });
  const batch = new BatchStandIn({ keys });
  batch.addQueue({ name: 'forever', lifecycle: [{ state: 'RUNNING', ...FOREVER }, { state: 'SUCCEEDED' }] });
  const glue = new GlueStandIn({ keys });
  glue.addJob({ name: 'forever', lifecycle: [{ state: 'RUNNING', ...FOREVER }, { state: 'SUCCEEDED' }] });
  const sagemaker = new SageMakerPipelinesStandIn({ keys });
  sagemaker.addPipeline({
    name: 'forever',
    lifecycle: [{ state: 'Executing', ...FOREVER }, { state: 'Succeeded' }],
  });
  return {
    stepFunctions: {
      standIn: stepFunctions,
      env: () => awsEnv('STEP_FUNCTIONS', stepFunctions),
      plugin: (key) => dataJob(key, { stepFunctions: { stateMachineArn: machine } }),
      cancels: () => stepFunctions.count('StopExecution'),
    },
    emrServerless: {
      standIn: emr,
      env: () => awsEnv('EMR_SERVERLESS', emr),
      plugin: (key) =>
        dataJob(key, {
          emrServerless: {
            applicationId: application,
            executionRoleArn: ROLE,
            sparkSubmit: { entryPoint: 's3://jobs/forever.py' },
          },
        }),
      cancels: () => emr.count('CancelJobRun'),
    },
    batch: {
      standIn: batch,
      env: () => awsEnv('BATCH', batch),
      plugin: (key) => dataJob(key, { batch: { jobQueue: 'forever', jobDefinition: 'forever:1' } }),
      cancels: () => batch.count('TerminateJob'),
    },
    glue: {
      standIn: glue,
      env: () => awsEnv('GLUE', glue),
      plugin: (key) => dataJob(key, { glue: { jobName: 'forever' } }),
      cancels: () => glue.count('BatchStopJobRun'),
    },
    sagemakerPipelines: {
      standIn: sagemaker,
      env: () => awsEnv('SAGEMAKER_PIPELINES', sagemaker),
      plugin: (key) => dataJob(key, { sagemakerPipelines: { pipelineName: 'forever' } }),
      cancels: () => sagemaker.count('StopPipelineExecution'),
    },
  };
}
