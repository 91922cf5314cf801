import { AwsError } from '../../stand-ins/aws/aws-json-stand-in.js';
import { SageMakerPipelinesStandIn } from '../../stand-ins/sagemaker-pipelines/sagemaker-pipelines.stand-in.js';
import { outputs } from '../support.js';
import type { AwsBackend } from './aws-backend-table.js';

export const sagemakerPipelinesRow: AwsBackend<SageMakerPipelinesStandIn> = {
  label: 'SageMaker Pipelines',
  prefix: 'SAGEMAKER_PIPELINES',
  accessKeyId: 'AKIAE2ESAGEMAKERPIPE',
  standIn: (keys) => new SageMakerPipelinesStandIn({ keys: [keys] }),
  setup: (sm) => {
    sm.addPipeline({ name: 'train' });
    sm.addPipeline({
      name: 'long',
      lifecycle: [{ state: 'Executing', polls: 1000 }, { state: 'Succeeded' }],
    });
    sm.addPipeline({
      name: 'broken',
      lifecycle: [
        { state: 'Executing' },
        { state: 'Failed', message: 'Step Train failed: AlgorithmError: loss is NaN' },
      ],
    });
  },
  firstCall: 'StartPipelineExecution',
  success: {
    title: 'starts the execution with its parameters intact and a token from the key, and waits for success',
    body: () => ({
      sagemakerPipelines: {
        pipelineName: 'train',
        parameters: { date: '2024-01-01', epochs: 10 },
        displayName: 'nightly-train',
      },
    }),
    check: (sm, { final }) => {
      const execution = sm.executions.find(
        (e) => e.request.PipelineExecutionDisplayName === 'nightly-train',
      )!;
      expect(execution.request).toEqual({
        PipelineName: 'train',
        ClientRequestToken: expect.stringMatching(/^[0-9a-f]{64}$/),
        PipelineParameters: [
          { Name: 'date', Value: '2024-01-01' },
          { Name: 'epochs', Value: '10' },
        ],
        PipelineExecutionDisplayName: 'nightly-train',
      });
      const id = execution.arn.split('/').pop();
      expect(outputs(final)).toEqual({
        provider: 'sagemakerPipelines',
        runId: execution.arn,
        url: `https://eu-west-1.console.aws.amazon.com/sagemaker/home?region=eu-west-1#/pipelines/train/executions/${id}`,
        state: 'succeeded',
        upstreamState: 'Succeeded',
        duration: expect.any(String),
        pipelineArn: 'arn:aws:sagemaker:eu-west-1:123456789012:pipeline/train',
      });
    },
  },
  failures: [
    {
      title: 'fails an execution naming the state and its FailureReason',
      body: () => ({ sagemakerPipelines: { pipelineName: 'broken' } }),
      message:
        /^SageMaker Pipelines run .+ failed \(Failed\): Step Train failed: AlgorithmError: loss is NaN/,
    },
  ],
  once: {
    title: 'keeps a step to one execution across concurrent calls and a restart (the client request token)',
    body: () => ({ sagemakerPipelines: { pipelineName: 'long' } }),
    followToEnd: false,
    check: ({ s: sm }) => expect(sm.executions.filter((e) => e.pipelineName === 'long')).toHaveLength(1),
  },
  throttling: {
    title: 'rides out throttling as the SDK retries it, and 5xx past its retries',
    body: () => ({ sagemakerPipelines: { pipelineName: 'train' } }),
    start: { operation: 'StartPipelineExecution' },
    poll: {
      operation: 'DescribePipelineExecution',
      error: new AwsError('InternalFailure', 'internal error', 500),
      message:
        /sagemakerPipelines: DescribePipelineExecution → 500 InternalFailure: internal error; retrying/,
    },
  },
  timeout: {
    title: 'stops the execution on timeout, then fails',
    body: () => ({ sagemakerPipelines: { pipelineName: 'long', displayName: 'late' } }),
    message: /^SageMaker Pipelines run .+ timed out after 1s and was cancelled/,
    check: (sm) => {
      expect(sm.count('StopPipelineExecution')).toBe(1);
      expect(sm.executions.find((e) => e.request.PipelineExecutionDisplayName === 'late')?.stopped).toBe(
        true,
      );
    },
  },
  invalid: [
    {
      body: () => ({ sagemakerPipelines: { pipelineName: 'bad name' } }),
      message:
        'data-job: invalid config: sagemakerPipelines.pipelineName: must be a SageMaker pipeline name or ARN',
    },
  ],
  refused: {
    body: () => ({ sagemakerPipelines: { pipelineName: 'absent' } }),
    message:
      "sagemakerPipelines: StartPipelineExecution → 400 ResourceNotFound: Pipeline 'arn:aws:sagemaker:eu-west-1:123456789012:pipeline/absent' does not exist.",
  },
};
