import { AwsError } from '../stand-ins/aws/aws-json-stand-in.js';
import { SageMakerPipelinesStandIn } from '../stand-ins/sagemaker-pipelines/sagemaker-pipelines.stand-in.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  SECRETS,
  sharedSidecar,
  sleep,
  uniqueWorkflow,
  withSidecar,
} from './support.js';

const KEYS = { accessKeyId: 'AKIAE2ESAGEMAKERPIPE', secretAccessKey: SECRETS.awsSecretKey };
const env = (s: SageMakerPipelinesStandIn): Record<string, string> => ({
  SAGEMAKER_PIPELINES_REGION: s.region,
  SAGEMAKER_PIPELINES_ENDPOINT_URL: s.url,
  SAGEMAKER_PIPELINES_ACCESS_KEY_ID: KEYS.accessKeyId,
  SAGEMAKER_PIPELINES_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
});

describe('data-job: SageMaker Pipelines', () => {
  const sm = new SageMakerPipelinesStandIn({ keys: [KEYS] });
  const h = sharedSidecar(
    [sm],
    () => env(sm),
    () => {
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
  );

  it('starts the execution with its parameters intact and a token from the key, and waits for success', async () => {
    const body = {
      sagemakerPipelines: {
        pipelineName: 'train',
        parameters: { date: '2024-01-01', epochs: 10 },
        displayName: 'nightly-train',
      },
    };
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob(body, { workflow: uniqueWorkflow() }),
      sm.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    const execution = sm.executions.at(-1)!;
    expect(execution.request).toEqual({
      PipelineName: 'train',
      ClientRequestToken: expect.stringMatching(/^[0-9a-f]{64}$/),
      PipelineParameters: [
        { Name: 'date', Value: '2024-01-01' },
        { Name: 'epochs', Value: '10' },
      ],
      PipelineExecutionDisplayName: 'nightly-train',
    });
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
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
    expectNoSecrets(h, replies, [SECRETS.awsSecretKey]);
  });

  it('fails an execution naming the state and its FailureReason', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ sagemakerPipelines: { pipelineName: 'broken' } }, { workflow: uniqueWorkflow() }),
      sm.server,
    );
    expect(final.node?.message).toMatch(
      /^SageMaker Pipelines run .+ failed \(Failed\): Step Train failed: AlgorithmError: loss is NaN/,
    );
  });

  it('keeps a step to one execution across concurrent calls and a restart (the client request token)', async () => {
    const request = dataJob({ sagemakerPipelines: { pipelineName: 'long' } }, { workflow: uniqueWorkflow() });
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    await withSidecar(env(sm), async (restarted) => {
      expect(outputs((await restarted.execute(request)).body).runId).toBe(runId);
    });
    expect(sm.executions.filter((e) => e.pipelineName === 'long')).toHaveLength(1);
  });

  it('rides out throttling as the SDK retries it, and 5xx past its retries', async () => {
    const request = dataJob(
      { sagemakerPipelines: { pipelineName: 'train' } },
      { workflow: uniqueWorkflow() },
    );
    sm.throttle('StartPipelineExecution', 2);
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    sm.failNext('DescribePipelineExecution', new AwsError('InternalFailure', 'internal error', 500), 3);
    expect((await h.execute(request)).body.node?.message).toMatch(
      /sagemakerPipelines: DescribePipelineExecution → 500 InternalFailure: internal error; retrying/,
    );
    const { final } = await pollToEnd(h, request, sm.server);
    expect(final.node?.phase).toBe('Succeeded');
  });

  it('stops the execution on timeout, then fails', async () => {
    const request = dataJob(
      {
        sagemakerPipelines: { pipelineName: 'long', displayName: 'late' },
        timeout: '1s',
        pollInterval: '5s',
      },
      { workflow: uniqueWorkflow() },
    );
    expect((await h.execute(request)).body.requeue).toBe('1s');
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(
      /^SageMaker Pipelines run .+ timed out after 1s and was cancelled/,
    );
    expect(sm.count('StopPipelineExecution')).toBe(1);
    expect(sm.executions.find((e) => e.request.PipelineExecutionDisplayName === 'late')?.stopped).toBe(true);
  });

  it('fails naming the field of a bad body, and the AWS reason of a refused call', async () => {
    const bad = await h.execute(dataJob({ sagemakerPipelines: { pipelineName: 'bad name' } }));
    expect(bad.body.node).toEqual({
      phase: 'Failed',
      message:
        'data-job: invalid config: sagemakerPipelines.pipelineName: must be a SageMaker pipeline name or ARN',
    });
    const missing = await h.execute(
      dataJob({ sagemakerPipelines: { pipelineName: 'absent' } }, { workflow: uniqueWorkflow() }),
    );
    expect(missing.body.node?.message).toBe(
      "sagemakerPipelines: StartPipelineExecution → 400 ResourceNotFound: Pipeline 'arn:aws:sagemaker:eu-west-1:123456789012:pipeline/absent' does not exist.",
    );
  });

  it('names the variable to set when the body picks an unconfigured connection', async () => {
    const reply = await h.execute(
      dataJob({ sagemakerPipelines: { pipelineName: 'train' }, connection: 'prod' }),
    );
    expect(reply.body.node?.message).toContain('SAGEMAKER_PIPELINES_PROD_REGION');
  });
});
