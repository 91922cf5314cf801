import {
  BatchClient,
  CreateComputeEnvironmentCommand,
  CreateJobQueueCommand,
  RegisterJobDefinitionCommand,
  SubmitJobCommand,
} from '@aws-sdk/client-batch';
import { batchModule, TERMINATE_REASON } from '../../src/providers/batch/batch.provider.js';
import type { BatchBlock } from '../../src/providers/batch/batch-block.dto.js';
import { BatchStandIn } from '../../stand-ins/batch/batch.stand-in.js';
import { createMotoRole } from './support/moto-calls.js';
import {
  KEYS,
  motoClientConfig,
  motoUrl,
  newKey,
  outcome,
  refusal,
  repeat,
  Target,
} from './support/same-steps.js';
import { oneRunAfter, throttledStart } from './support/throttled-start.js';

/** A queue of the stand-in whose jobs run until terminated. */
const LONG_QUEUE = {
  name: 'long-jobs',
  lifecycle: [{ state: 'SUBMITTED' as const }, { state: 'RUNNING' as const, polls: 1000 }],
};

describe('moto: Batch, the same steps against moto and the stand-in', () => {
  const standIn = new BatchStandIn({ keys: [KEYS] });
  const moto = new Target<BatchBlock>('moto', batchModule, motoUrl);
  const ours = new Target<BatchBlock>('stand-in', batchModule, () => standIn.url);
  const queues = new Map<Target<BatchBlock>, string>();
  const block = (target: Target<BatchBlock>, name: string) =>
    ({
      jobQueue: queues.get(target)!,
      jobDefinition: 'orders-load',
      name,
      parameters: { date: '2024-01-01' },
      command: ['load', 'Ref::date'],
    }) as BatchBlock;

  beforeAll(async () => {
    await standIn.start();
    queues.set(ours, standIn.addQueue({ name: 'data-jobs' }));
    const batch = new BatchClient(motoClientConfig());
    const serviceRole = await createMotoRole('argo-batch-service');
    const environment = await batch.send(
      new CreateComputeEnvironmentCommand({
        computeEnvironmentName: 'data-jobs',
        type: 'UNMANAGED',
        state: 'ENABLED',
        serviceRole,
      }),
    );
    const queue = await batch.send(
      new CreateJobQueueCommand({
        jobQueueName: 'data-jobs',
        state: 'ENABLED',
        priority: 1,
        computeEnvironmentOrder: [{ order: 1, computeEnvironment: environment.computeEnvironmentArn }],
      }),
    );
    await batch.send(
      new RegisterJobDefinitionCommand({
        jobDefinitionName: 'orders-load',
        type: 'container',
        containerProperties: { image: 'busybox', vcpus: 1, memory: 128, command: ['true'] },
      }),
    );
    queues.set(moto, queue.jobQueueArn!);
  });
  afterAll(() => standIn.close());

  async function toEndAndRestart(target: Target<BatchBlock>) {
    const key = newKey();
    const job = block(target, 'nightly');
    const provider = await target.provider();
    const started = await target.start(provider, job, key);
    const final = await target.follow(provider, started.ref, job);
    // No idempotency token in Batch: the restarted sidecar lists the jobs of that name and finds its key tag.
    const afterRestart = await target.start(await target.provider(), job, key);
    await provider.cancel(started.ref, AbortSignal.timeout(10_000));
    const afterTerminate = await target.poll(provider, started.ref, job, true);
    return {
      calls: target.takeCalls(),
      started: outcome(started),
      final: outcome(final),
      sameRunAfterRestart: afterRestart.ref.runId === started.ref.runId,
      afterRestart: outcome(afterRestart),
      afterTerminate: { ...outcome(afterTerminate), message: undefined },
      terminateMessage: afterTerminate.message,
    };
  }

  it('submits a job tagged with its key, follows it to SUCCEEDED, a restarted sidecar finds it, and a late TerminateJob leaves it SUCCEEDED', async () => {
    const [onMoto, onStandIn] = await Promise.all([toEndAndRestart(moto), toEndAndRestart(ours)]);
    const succeeded = expect.objectContaining({ state: 'succeeded', upstreamState: 'SUCCEEDED' });
    expect(onStandIn).toEqual({
      calls: [
        'ListJobs',
        'SubmitJob',
        'DescribeJobs',
        'ListJobs',
        'DescribeJobs',
        'TerminateJob',
        'DescribeJobs',
      ],
      started: expect.objectContaining({ state: 'queued', upstreamState: 'SUBMITTED' }),
      final: expect.objectContaining({
        state: 'succeeded',
        finishedAt: 'number',
        extras: ['jobName', 'logStreamName'],
      }),
      sameRunAfterRestart: true,
      afterRestart: succeeded,
      afterTerminate: succeeded,
      // The API reference: TerminateJob changes only jobs that have not ended.
      terminateMessage: undefined,
    });
    // Where moto 5.2.5 differs: TerminateJob writes its reason into a SUCCEEDED job's statusReason.
    expect(onMoto).toEqual({ ...onStandIn, terminateMessage: TERMINATE_REASON });
  });

  it('where moto 5.2.5 differs: without Docker a job is SUCCEEDED at once, so terminating a running job is held against the stand-in only', async () => {
    const motoProvider = await moto.provider();
    const motoJob = block(moto, 'at-once');
    const submitted = await moto.start(motoProvider, motoJob, newKey());
    expect((await moto.follow(motoProvider, submitted.ref, motoJob)).upstreamState).toBe('SUCCEEDED');
    expect(moto.takeCalls()).toEqual(['ListJobs', 'SubmitJob', 'DescribeJobs']);

    const job = { ...block(ours, 'terminated'), jobQueue: standIn.addQueue(LONG_QUEUE) };
    const provider = await ours.provider();
    const started = await ours.start(provider, job, newKey());
    await ours.follow(provider, started.ref, job, { until: (r) => r.state === 'running' });
    await provider.cancel(started.ref, AbortSignal.timeout(10_000));
    const final = await ours.follow(provider, started.ref, job, { cancelRequested: true });
    expect(outcome(final)).toEqual(
      expect.objectContaining({ state: 'cancelled', upstreamState: 'FAILED', message: TERMINATE_REASON }),
    );
  });

  it('refuses a job on a queue that does not exist the same way: a permanent ClientException', async () => {
    const missing = (t: Target<BatchBlock>) => ({ ...block(t, 'nowhere'), jobQueue: 'missing-queue' });
    const [onMoto, onStandIn] = await Promise.all([
      refusal(moto, missing(moto)),
      refusal(ours, missing(ours)),
    ]);
    expect(onStandIn).toEqual({
      operation: 'ListJobs',
      status: '400',
      code: 'ClientException',
      kind: 'permanent',
      calls: ['ListJobs'],
    });
    expect(onMoto).toEqual(onStandIn);
  });

  it('throttled (429 TooManyRequestsException), the SDK retries SubmitJob and the step submits one job: the stand-in only, moto does not throttle', async () => {
    const throttled = { operation: 'SubmitJob', type: 'TooManyRequestsException' };
    const result = await throttledStart(
      ours,
      standIn,
      throttled,
      block(ours, 'throttled'),
      () => standIn.jobs.length,
    );
    expect(result).toEqual(oneRunAfter([429, 429, 200], ['ListJobs', 'SubmitJob']));
  });

  // AWS pages ListJobs by 100; moto 5.2.5 answers every job in one reply (its list_jobs: "Pagination is not yet
  // implemented"). The provider follows nextToken either way and finds the same job.
  async function findPastAPage(target: Target<BatchBlock>) {
    const key = newKey();
    const job = block(target, 'paged');
    const started = await target.start(await target.provider(), job, key);
    const someoneElse = new BatchClient(target.clientConfig());
    await repeat(101, () =>
      someoneElse.send(
        new SubmitJobCommand({
          jobName: started.extras!.jobName,
          jobQueue: job.jobQueue,
          jobDefinition: 'orders-load',
        }),
      ),
    );
    target.takeCalls();
    const afterRestart = await target.start(await target.provider(), job, key);
    const listPages = target.sent('ListJobs');
    return {
      calls: target.takeCalls(),
      listPages,
      sameRunAfterRestart: afterRestart.ref.runId === started.ref.runId,
    };
  }

  it('finds the job of a step among more jobs of its name than a ListJobs page holds (moto: all in one reply)', async () => {
    const [onMoto, onStandIn] = await Promise.all([findPastAPage(moto), findPastAPage(ours)]);
    expect(onStandIn).toEqual({
      calls: ['ListJobs', 'DescribeJobs'],
      listPages: 2,
      sameRunAfterRestart: true,
    });
    expect(onMoto).toEqual({ ...onStandIn, listPages: 1 });
  }, 180_000);
});
