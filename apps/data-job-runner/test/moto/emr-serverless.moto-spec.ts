import { CreateApplicationCommand, EMRServerlessClient } from '@aws-sdk/client-emr-serverless';
import { emrServerlessModule } from '../../src/providers/emr-serverless/emr-serverless.provider.js';
import type { EmrServerlessBlock } from '../../src/providers/emr-serverless/emr-serverless-block.dto.js';
import { EmrServerlessStandIn } from '../../stand-ins/emr-serverless/emr-serverless.stand-in.js';
import { KEYS, motoClientConfig, motoUrl, newKey, outcome, refusal, Target } from './support/same-steps.js';
import { oneRunAfter, throttledStart } from './support/throttled-start.js';

type Block = EmrServerlessBlock;
const ROLE = 'arn:aws:iam::123456789012:role/argo-emr-jobs';

describe('moto: EMR Serverless, the same steps against moto and the stand-in', () => {
  const standIn = new EmrServerlessStandIn({ keys: [KEYS] });
  const moto = new Target<Block>('moto', emrServerlessModule, motoUrl);
  const ours = new Target<Block>('stand-in', emrServerlessModule, () => standIn.url);
  const applications = new Map<Target<Block>, string>();
  const block = (target: Target<Block>) =>
    ({
      applicationId: applications.get(target)!,
      executionRoleArn: ROLE,
      sparkSubmit: { entryPoint: 's3://scripts/orders.py', entryPointArguments: ['2024-01-01'] },
    }) as Block;

  beforeAll(async () => {
    await standIn.start();
    applications.set(ours, standIn.addApplication({ name: 'spark' }));
    const created = await new EMRServerlessClient(motoClientConfig()).send(
      new CreateApplicationCommand({
        name: 'spark',
        releaseLabel: 'emr-7.5.0',
        type: 'SPARK',
        clientToken: 'create-spark',
      }),
    );
    applications.set(moto, created.applicationId!);
  });
  afterAll(() => standIn.close());

  async function toEndAndRestart(target: Target<Block>) {
    const key = newKey();
    const provider = await target.provider();
    const started = await target.start(provider, block(target), key);
    const final = await target.follow(provider, started.ref, block(target));
    const afterRestart = await target.start(await target.provider(), block(target), key);
    return {
      calls: target.takeCalls(),
      started: outcome(started),
      final: outcome(final),
      sameRunAfterRestart: afterRestart.ref.runId === started.ref.runId,
    };
  }

  it('starts a job run with a clientToken from the key and follows it to SUCCESS', async () => {
    const [onMoto, onStandIn] = await Promise.all([toEndAndRestart(moto), toEndAndRestart(ours)]);
    expect(onStandIn).toEqual({
      calls: ['StartJobRun', 'GetJobRun', 'StartJobRun'],
      started: expect.objectContaining({ state: 'queued', upstreamState: 'SUBMITTED' }),
      final: expect.objectContaining({ state: 'succeeded', upstreamState: 'SUCCESS', finishedAt: 'number' }),
      // The API reference: the same clientToken (and request) returns the job run it started.
      sameRunAfterRestart: true,
    });
    // Where moto 5.2.5 differs: it does not deduplicate by clientToken, the repeat starts another job run.
    expect(onMoto).toEqual({ ...onStandIn, sameRunAfterRestart: false });
  });

  async function cancelAtOnce(target: Target<Block>) {
    const provider = await target.provider();
    const started = await target.start(provider, block(target), newKey());
    await provider.cancel(started.ref, AbortSignal.timeout(10_000));
    const final = await target.follow(provider, started.ref, block(target), { cancelRequested: true });
    // A job run that is not there (anymore) needs nothing: ResourceNotFoundException is not an error.
    await provider.cancel({ ...started.ref, runId: '00f0000000000000' }, AbortSignal.timeout(10_000));
    return {
      calls: target.takeCalls(),
      final: { ...outcome(final), message: undefined },
      message: final.message,
    };
  }

  it('cancels a job run: CANCELLED reads as cancelled, and a job run that is gone needs nothing', async () => {
    const [onMoto, onStandIn] = await Promise.all([cancelAtOnce(moto), cancelAtOnce(ours)]);
    expect(onStandIn).toEqual({
      calls: ['StartJobRun', 'CancelJobRun', 'GetJobRun', 'CancelJobRun'],
      final: expect.objectContaining({ state: 'cancelled', upstreamState: 'CANCELLED' }),
      message: 'Job run cancelled by user',
    });
    // Where moto 5.2.5 differs: its job runs hold SUCCESS from the start and CancelJobRun sets CANCELLED with
    // no stateDetails, so the walk through CANCELLING is held against the stand-in only.
    expect(onMoto).toEqual({ ...onStandIn, message: undefined });
  });

  it('refuses a start in an application that does not exist: a permanent ResourceNotFoundException', async () => {
    const missing = (t: Target<Block>) => ({ ...block(t), applicationId: '00f0000000000001' });
    const [onMoto, onStandIn] = await Promise.all([
      refusal(moto, missing(moto)),
      refusal(ours, missing(ours)),
    ]);
    expect(onStandIn).toEqual({
      operation: 'StartJobRun',
      status: '404',
      code: 'ResourceNotFoundException',
      kind: 'permanent',
      calls: ['StartJobRun'],
    });
    // Where moto 5.2.5 differs: it answers 400; the API reference gives ResourceNotFoundException 404.
    expect(onMoto).toEqual({ ...onStandIn, status: '400' });
  });

  it('throttled (429 ThrottlingException), the SDK retries StartJobRun and the step starts one job run: the stand-in only, moto does not throttle', async () => {
    const throttled = { operation: 'StartJobRun', type: 'ThrottlingException' };
    const result = await throttledStart(ours, standIn, throttled, block(ours), () => standIn.jobRuns.length);
    expect(result).toEqual(oneRunAfter([429, 429, 200], ['StartJobRun']));
  });
});
