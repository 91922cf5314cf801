import { CreateJobCommand, GetJobRunsCommand, GlueClient, StartJobRunCommand } from '@aws-sdk/client-glue';
import { glueModule } from '../../src/providers/glue/glue.provider.js';
import type { GlueBlock } from '../../src/providers/glue/glue-block.dto.js';
import { GlueStandIn } from '../../stand-ins/glue/glue.stand-in.js';
import { motoLacks } from './support/moto-calls.js';
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

describe('moto: Glue, the same steps against moto and the stand-in', () => {
  const standIn = new GlueStandIn({ keys: [KEYS] })
    .addJob({ name: 'orders-etl' })
    .addJob({ name: 'busy-etl' });
  const moto = new Target<GlueBlock>('moto', glueModule, motoUrl);
  const ours = new Target<GlueBlock>('stand-in', glueModule, () => standIn.url);

  beforeAll(async () => {
    await standIn.start();
    await new GlueClient(motoClientConfig()).send(
      new CreateJobCommand({
        Name: 'orders-etl',
        Role: 'arn:aws:iam::123456789012:role/argo-data-jobs',
        Command: { Name: 'glueetl', ScriptLocation: 's3://scripts/orders.py' },
      }),
    );
    await new GlueClient(motoClientConfig()).send(
      new CreateJobCommand({
        Name: 'busy-etl',
        Role: 'arn:aws:iam::123456789012:role/argo-data-jobs',
        Command: { Name: 'glueetl', ScriptLocation: 's3://scripts/busy.py' },
        ExecutionProperty: { MaxConcurrentRuns: 1000 },
      }),
    );
  });
  afterAll(() => standIn.close());

  async function toEndAndRestart(target: Target<GlueBlock>) {
    const block = { jobName: 'orders-etl', arguments: { '--date': '2024-01-01' } } as GlueBlock;
    const key = newKey();
    const provider = await target.provider();
    const started = await target.start(provider, block, key);
    const final = await target.follow(provider, started.ref, block);
    // No idempotency token in Glue: the restarted sidecar finds the run by the key argument it was started with.
    const afterRestart = await target.start(await target.provider(), block, key);
    return {
      calls: target.takeCalls(),
      started: outcome(started),
      final: outcome(final),
      sameRunAfterRestart: afterRestart.ref.runId === started.ref.runId,
      afterRestart: outcome(afterRestart),
    };
  }

  it('starts a run tagged by its key argument, follows it to SUCCEEDED, and a restarted sidecar finds the same run', async () => {
    const [onMoto, onStandIn] = await Promise.all([toEndAndRestart(moto), toEndAndRestart(ours)]);
    expect(onStandIn).toEqual({
      calls: ['GetJobRuns', 'StartJobRun', 'GetJobRun', 'GetJobRuns'],
      started: expect.objectContaining({ state: 'queued', upstreamState: 'STARTING' }),
      final: expect.objectContaining({
        state: 'succeeded',
        upstreamState: 'SUCCEEDED',
        finishedAt: 'number',
      }),
      sameRunAfterRestart: true,
      afterRestart: expect.objectContaining({ state: 'succeeded', upstreamState: 'SUCCEEDED' }),
    });
    expect(onMoto).toEqual(onStandIn);
  });

  it('where moto 5.2.5 differs: BatchStopJobRun is not implemented, so cancel is held against the stand-in only', async () => {
    const input = { JobName: 'orders-etl', JobRunIds: ['jr_0'] };
    expect(await motoLacks('glue', 'AWSGlue.BatchStopJobRun', '1.1', input)).toBe(true);
    // The same check answers false for an operation moto has.
    expect(await motoLacks('glue', 'AWSGlue.GetJobRuns', '1.1', { JobName: 'orders-etl' })).toBe(false);

    const block = { jobName: 'orders-etl' } as GlueBlock;
    const provider = await ours.provider();
    const started = await ours.start(provider, block, newKey());
    await provider.cancel(started.ref, AbortSignal.timeout(10_000));
    const final = await ours.follow(provider, started.ref, block, { cancelRequested: true });
    expect(ours.takeCalls()).toEqual(['GetJobRuns', 'StartJobRun', 'BatchStopJobRun', 'GetJobRun']);
    expect(outcome(final)).toEqual(expect.objectContaining({ state: 'cancelled', upstreamState: 'STOPPED' }));
  });

  it('refuses a start for a job that does not exist the same way: a permanent EntityNotFoundException', async () => {
    const block = { jobName: 'missing-etl' } as GlueBlock;
    const [onMoto, onStandIn] = await Promise.all([refusal(moto, block), refusal(ours, block)]);
    expect(onStandIn).toEqual({
      operation: 'GetJobRuns',
      status: '400',
      code: 'EntityNotFoundException',
      kind: 'permanent',
      calls: ['GetJobRuns'],
    });
    expect(onMoto).toEqual(onStandIn);
  });

  it('throttled (400 ThrottlingException), the SDK retries StartJobRun and the step starts one run: the stand-in only, moto does not throttle', async () => {
    const throttled = { operation: 'StartJobRun', type: 'ThrottlingException' };
    const block = { jobName: 'orders-etl' } as GlueBlock;
    const result = await throttledStart(ours, standIn, throttled, block, () => standIn.runs.length);
    expect(result).toEqual(oneRunAfter([400, 400, 200], ['GetJobRuns', 'StartJobRun']));
  });

  /** Runs of busy-etl that someone else starts (a trigger, the console): they fill GetJobRuns' pages. */
  async function foreignRuns(target: Target<GlueBlock>, count: number) {
    const glue = new GlueClient(target.clientConfig());
    await repeat(count, () =>
      glue.send(new StartJobRunCommand({ JobName: 'busy-etl', Arguments: { '--date': 'other' } })),
    );
  }

  // GetJobRuns pages of 200. AWS (and the stand-in) lists the newest runs first, moto 5.2.5 the oldest: 201 runs
  // of someone else, started after ours on AWS and before ours on moto, put ours on the second page of both.
  async function findPastAPage(target: Target<GlueBlock>, othersFirst: boolean) {
    const block = { jobName: 'busy-etl' } as GlueBlock;
    const key = newKey();
    if (othersFirst) await foreignRuns(target, 201);
    const started = await target.start(await target.provider(), block, key);
    if (!othersFirst) await foreignRuns(target, 201);
    target.takeCalls();
    const afterRestart = await target.start(await target.provider(), block, key);
    const pages = target.sent('GetJobRuns');
    return {
      calls: target.takeCalls(),
      pages,
      sameRunAfterRestart: afterRestart.ref.runId === started.ref.runId,
      afterRestart: outcome(afterRestart),
    };
  }

  it('a restarted sidecar looks up the run of its step across GetJobRuns pages, on moto as on the stand-in', async () => {
    const [onMoto, onStandIn] = await Promise.all([findPastAPage(moto, true), findPastAPage(ours, false)]);
    expect(onStandIn).toEqual({
      calls: ['GetJobRuns'],
      pages: 2,
      sameRunAfterRestart: true,
      afterRestart: expect.objectContaining({ state: expect.stringMatching(/^(queued|running|succeeded)$/) }),
    });
    expect(onMoto).toEqual({
      ...onStandIn,
      afterRestart: expect.objectContaining({ state: expect.any(String) }),
    });
  }, 180_000);

  it('moto 5.2.5 does not throttle: 40 concurrent GetJobRuns are all answered', async () => {
    const glue = new GlueClient({ ...motoClientConfig(), maxAttempts: 1 });
    const replies = await Promise.allSettled(
      Array.from({ length: 40 }, () => glue.send(new GetJobRunsCommand({ JobName: 'orders-etl' }))),
    );
    expect(replies.filter((r) => r.status === 'rejected')).toEqual([]);
  });
});
