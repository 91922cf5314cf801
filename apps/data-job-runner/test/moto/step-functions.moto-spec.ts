import { CreateStateMachineCommand, SFNClient } from '@aws-sdk/client-sfn';
import { stepFunctionsModule } from '../../src/providers/step-functions/step-functions.provider.js';
import type { StepFunctionsBlock } from '../../src/providers/step-functions/step-functions-block.dto.js';
import { StepFunctionsStandIn } from '../../stand-ins/step-functions/step-functions.stand-in.js';
import { KEYS, motoClientConfig, motoUrl, newKey, outcome, refusal, Target } from './support/same-steps.js';
import { oneRunAfter, throttledStart } from './support/throttled-start.js';

const ROLE = 'arn:aws:iam::123456789012:role/argo-data-jobs';
/** A Wait keeps the execution RUNNING for that long, then a Pass state gives the output. */
const definition = (seconds: number) =>
  JSON.stringify({
    StartAt: 'Wait',
    States: {
      Wait: { Type: 'Wait', Seconds: seconds, Next: 'Load' },
      Load: { Type: 'Pass', Result: { rows: 1234 }, End: true },
    },
  });

describe('moto: Step Functions, the same steps against moto and the stand-in', () => {
  const standIn = new StepFunctionsStandIn({ keys: [KEYS] });
  const moto = new Target<StepFunctionsBlock>('moto', stepFunctionsModule, motoUrl);
  const ours = new Target<StepFunctionsBlock>('stand-in', stepFunctionsModule, () => standIn.url);
  const machines = new Map<Target<StepFunctionsBlock>, { quick: string; waits: string }>();

  beforeAll(async () => {
    await standIn.start();
    machines.set(ours, {
      quick: standIn.addStateMachine({ name: 'orders', output: '{"rows":1234}' }),
      waits: standIn.addStateMachine({ name: 'waits', lifecycle: [{ state: 'RUNNING', polls: 1000 }] }),
    });
    const sfn = new SFNClient(motoClientConfig());
    const create = async (name: string, seconds: number) =>
      (
        await sfn.send(
          new CreateStateMachineCommand({ name, roleArn: ROLE, definition: definition(seconds) }),
        )
      ).stateMachineArn!;
    machines.set(moto, { quick: await create('orders', 1), waits: await create('waits', 600) });
  });
  afterAll(() => standIn.close());

  async function toEndAndRestart(target: Target<StepFunctionsBlock>) {
    const block = {
      stateMachineArn: machines.get(target)!.quick,
      name: 'nightly',
      input: { date: '2024-01-01' },
    };
    const key = newKey();
    const provider = await target.provider();
    const started = await target.start(provider, block, key);
    const final = await target.follow(provider, started.ref, block);
    const { outputs } = await provider.finish!(final, undefined as never);
    const afterRestart = await target.start(await target.provider(), block, key);
    return {
      calls: target.takeCalls(),
      started: outcome(started),
      final: outcome(final),
      output: JSON.parse(outputs.output!) as unknown,
      sameRunAfterRestart: afterRestart.ref.runId === started.ref.runId,
    };
  }

  it('starts an execution named from the key, follows it to SUCCEEDED, and a restarted sidecar follows the same one', async () => {
    const [onMoto, onStandIn] = await Promise.all([toEndAndRestart(moto), toEndAndRestart(ours)]);
    expect(onStandIn).toEqual({
      calls: ['StartExecution', 'DescribeExecution', 'StartExecution'],
      started: expect.objectContaining({ state: 'queued', upstreamState: 'STARTED' }),
      final: expect.objectContaining({
        state: 'succeeded',
        upstreamState: 'SUCCEEDED',
        finishedAt: 'number',
      }),
      output: { rows: 1234 },
      sameRunAfterRestart: true,
    });
    expect(onMoto).toEqual(onStandIn);
  });

  async function cancelRunning(target: Target<StepFunctionsBlock>) {
    const block = { stateMachineArn: machines.get(target)!.waits, name: 'cancelled', input: {} };
    const key = newKey();
    const provider = await target.provider();
    const started = await target.start(provider, block, key);
    const running = await target.follow(provider, started.ref, block, {
      until: (r) => r.state === 'running',
    });
    // The same name and input while it runs: Standard workflows return the running execution.
    const again = await target.start(await target.provider(), block, key);
    await provider.cancel(started.ref, AbortSignal.timeout(10_000));
    const final = await target.follow(provider, started.ref, block, { cancelRequested: true });
    return {
      calls: target.takeCalls(),
      running: outcome(running),
      sameRunWhileRunning: again.ref.runId === started.ref.runId,
      final: { ...outcome(final), message: undefined },
      message: final.message,
    };
  }

  it('stops a running execution: ABORTED reads as cancelled', async () => {
    const [onMoto, onStandIn] = await Promise.all([cancelRunning(moto), cancelRunning(ours)]);
    expect(onStandIn).toEqual({
      calls: ['StartExecution', 'DescribeExecution', 'StartExecution', 'StopExecution', 'DescribeExecution'],
      running: expect.objectContaining({ state: 'running', upstreamState: 'RUNNING' }),
      sameRunWhileRunning: true,
      final: expect.objectContaining({ state: 'cancelled', upstreamState: 'ABORTED' }),
      // StopExecution's error and cause, as DescribeExecution gives them back.
      message: 'Argo.Cancelled: stopped by the Argo workflow (timeout or stop)',
    });
    // Where moto 5.2.5 differs: the aborted execution keeps no error or cause.
    expect(onMoto).toEqual({ ...onStandIn, message: undefined });
  });

  it('refuses a start on a state machine that does not exist the same way: a permanent StateMachineDoesNotExist', async () => {
    const missing = (t: Target<StepFunctionsBlock>) => ({
      stateMachineArn: machines.get(t)!.quick.replace(':orders', ':missing'),
    });
    const [onMoto, onStandIn] = await Promise.all([
      refusal(moto, missing(moto)),
      refusal(ours, missing(ours)),
    ]);
    expect(onStandIn).toEqual({
      operation: 'StartExecution',
      status: '400',
      code: 'StateMachineDoesNotExist',
      kind: 'permanent',
      calls: ['StartExecution'],
    });
    expect(onMoto).toEqual(onStandIn);
  });

  it('throttled (400 ThrottlingException), the SDK retries StartExecution and the step starts one execution: the stand-in only, moto does not throttle', async () => {
    const throttled = { operation: 'StartExecution', type: 'ThrottlingException' };
    const block = { stateMachineArn: machines.get(ours)!.quick, name: 'throttled', input: {} };
    const result = await throttledStart(ours, standIn, throttled, block, () => standIn.executions.size);
    expect(result).toEqual(oneRunAfter([400, 400, 200], ['StartExecution']));
  });
});
