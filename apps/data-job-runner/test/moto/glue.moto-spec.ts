import { CreateJobCommand, GlueClient } from '@aws-sdk/client-glue';
import { glueModule } from '../../src/providers/glue/glue.provider.js';
import type { GlueBlock } from '../../src/providers/glue/glue-block.dto.js';
import { GlueStandIn } from '../../stand-ins/glue/glue.stand-in.js';
import { motoLacks } from './support/moto-calls.js';
import { KEYS, motoClientConfig, motoUrl, newKey, outcome, refusal, Target } from './support/same-steps.js';

describe('moto: Glue, the same steps against moto and the stand-in', () => {
  const standIn = new GlueStandIn({ keys: [KEYS] }).addJob({ name: 'orders-etl' });
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
});
