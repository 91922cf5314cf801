import { CreatePipelineCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { sagemakerPipelinesModule } from '../../src/providers/sagemaker-pipelines/sagemaker-pipelines.provider.js';
import type { SagemakerPipelinesBlock } from '../../src/providers/sagemaker-pipelines/sagemaker-pipelines-block.dto.js';
import { SageMakerPipelinesStandIn } from '../../stand-ins/sagemaker-pipelines/sagemaker-pipelines.stand-in.js';
import { motoLacks } from './support/moto-calls.js';
import { KEYS, motoClientConfig, motoUrl, newKey, outcome, refusal, Target } from './support/same-steps.js';
import { oneRunAfter, throttledStart } from './support/throttled-start.js';

type Block = SagemakerPipelinesBlock;

describe('moto: SageMaker Pipelines, the same steps against moto and the stand-in', () => {
  const standIn = new SageMakerPipelinesStandIn({ keys: [KEYS] }).addPipeline({ name: 'train' });
  const moto = new Target<Block>('moto', sagemakerPipelinesModule, motoUrl);
  const ours = new Target<Block>('stand-in', sagemakerPipelinesModule, () => standIn.url);

  beforeAll(async () => {
    await standIn.start();
    await new SageMakerClient(motoClientConfig()).send(
      new CreatePipelineCommand({
        PipelineName: 'train',
        RoleArn: 'arn:aws:iam::123456789012:role/argo-data-jobs',
        PipelineDefinition: JSON.stringify({ Version: '2020-12-01', Parameters: [], Steps: [] }),
        ClientRequestToken: 'create-train-pipeline'.padEnd(32, '0'),
      }),
    );
  });
  afterAll(() => standIn.close());

  async function toEndAndRestart(target: Target<Block>) {
    const block = { pipelineName: 'train', parameters: { date: '2024-01-01' } } as Block;
    const key = newKey();
    const provider = await target.provider();
    const started = await target.start(provider, block, key);
    const final = await target.follow(provider, started.ref, block);
    const afterRestart = await target.start(await target.provider(), block, key);
    return {
      calls: target.takeCalls(),
      started: outcome(started),
      final: outcome(final),
      sameRunAfterRestart: afterRestart.ref.runId === started.ref.runId,
    };
  }

  it('starts an execution with a ClientRequestToken from the key and follows it to Succeeded', async () => {
    const [onMoto, onStandIn] = await Promise.all([toEndAndRestart(moto), toEndAndRestart(ours)]);
    expect(onStandIn).toEqual({
      calls: ['StartPipelineExecution', 'DescribePipelineExecution', 'StartPipelineExecution'],
      started: expect.objectContaining({ state: 'queued', upstreamState: 'STARTED' }),
      final: expect.objectContaining({
        state: 'succeeded',
        upstreamState: 'Succeeded',
        finishedAt: 'number',
      }),
      // The API reference: the same ClientRequestToken returns the execution it started.
      sameRunAfterRestart: true,
    });
    // Where moto 5.2.5 differs: it does not deduplicate by ClientRequestToken, the repeat starts another execution.
    expect(onMoto).toEqual({ ...onStandIn, sameRunAfterRestart: false });
  });

  it('where moto 5.2.5 differs: StopPipelineExecution is not implemented, so cancel is held against the stand-in only', async () => {
    const arn = 'arn:aws:sagemaker:eu-west-1:123456789012:pipeline/train/execution/000000000000';
    const stop = { PipelineExecutionArn: arn, ClientRequestToken: 'stop'.padEnd(32, '0') };
    expect(await motoLacks('sagemaker', 'SageMaker.StopPipelineExecution', '1.1', stop)).toBe(true);
    expect(
      await motoLacks('sagemaker', 'SageMaker.DescribePipelineExecution', '1.1', {
        PipelineExecutionArn: arn,
      }),
    ).toBe(false);

    const block = { pipelineName: 'train' } as Block;
    const provider = await ours.provider();
    const started = await ours.start(provider, block, newKey());
    await provider.cancel(started.ref, AbortSignal.timeout(10_000));
    const final = await ours.follow(provider, started.ref, block, { cancelRequested: true });
    expect(ours.takeCalls()).toEqual([
      'StartPipelineExecution',
      'StopPipelineExecution',
      'DescribePipelineExecution',
    ]);
    expect(outcome(final)).toEqual(expect.objectContaining({ state: 'cancelled', upstreamState: 'Stopped' }));
  });

  it('refuses a start of a pipeline that does not exist: a permanent failure', async () => {
    const block = { pipelineName: 'missing' } as Block;
    const [onMoto, onStandIn] = await Promise.all([refusal(moto, block), refusal(ours, block)]);
    expect(onStandIn).toEqual({
      operation: 'StartPipelineExecution',
      status: '400',
      code: 'ResourceNotFound',
      kind: 'permanent',
      calls: ['StartPipelineExecution'],
    });
    // Where moto 5.2.5 differs: it answers ValidationException; the API reference names ResourceNotFound.
    expect(onMoto).toEqual({ ...onStandIn, code: 'ValidationException' });
  });

  it('throttled (400 ThrottlingException), the SDK retries StartPipelineExecution and the step starts one execution: the stand-in only, moto does not throttle', async () => {
    const throttled = { operation: 'StartPipelineExecution', type: 'ThrottlingException' };
    const block = { pipelineName: 'train' } as Block;
    const result = await throttledStart(ours, standIn, throttled, block, () => standIn.executions.length);
    expect(result).toEqual(oneRunAfter([400, 400, 200], ['StartPipelineExecution']));
  });
});
