import { AwsError } from '../stand-ins/aws/aws-json-stand-in.js';
import {
  StepFunctionsStandIn,
  type StateMachineSpec,
} from '../stand-ins/step-functions/step-functions.stand-in.js';
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
  withStandIn,
} from './support.js';

const KEYS = { accessKeyId: 'AKIAE2ESTEPFUNCTIONS', secretAccessKey: SECRETS.awsSecretKey };
const env = (sfn: StepFunctionsStandIn): Record<string, string> => ({
  STEP_FUNCTIONS_REGION: sfn.region,
  STEP_FUNCTIONS_ENDPOINT_URL: sfn.url,
  STEP_FUNCTIONS_ACCESS_KEY_ID: KEYS.accessKeyId,
  STEP_FUNCTIONS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
});

describe('data-job: Step Functions', () => {
  const sfn = new StepFunctionsStandIn({ keys: [KEYS] });
  const machines: Record<string, string> = {};
  const add = (spec: StateMachineSpec) => (machines[spec.name] = sfn.addStateMachine(spec));
  const h = sharedSidecar(
    [sfn],
    () => env(sfn),
    () => {
      add({ name: 'orders', output: '{"rows":1234}' });
      add({ name: 'long', lifecycle: [{ state: 'RUNNING', polls: 1000 }, { state: 'SUCCEEDED' }] });
      add({
        name: 'broken',
        lifecycle: [{ state: 'RUNNING' }, { state: 'FAILED' }],
        failure: { error: 'States.TaskFailed', cause: 'Lambda orders-load returned 500' },
      });
      add({
        name: 'slow',
        lifecycle: [{ state: 'RUNNING' }, { state: 'TIMED_OUT' }],
        failure: { error: 'States.Timeout', cause: 'heartbeat missed' },
      });
    },
  );
  const ownExecutions = (prefix: string) =>
    [...sfn.executions.values()].filter((e) => e.name.startsWith(prefix));

  it('starts one execution named from the key with the input intact, and waits for success', async () => {
    const body = {
      stepFunctions: {
        stateMachineArn: machines.orders,
        name: 'nightly',
        input: { date: '2024-01-01', limit: 10 },
      },
    };
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob(body, { workflow: uniqueWorkflow() }),
      sfn.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    const [execution] = ownExecutions('nightly-');
    expect(execution.name).toMatch(/^nightly-[0-9a-f]{32}$/);
    expect(JSON.parse(execution.input)).toEqual({ date: '2024-01-01', limit: 10 });
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    expect(outputs(final)).toEqual({
      provider: 'stepFunctions',
      runId: execution.executionArn,
      url: `https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#/v2/executions/details/${execution.executionArn}`,
      state: 'succeeded',
      upstreamState: 'SUCCEEDED',
      duration: expect.any(String),
      executionName: execution.name,
      output: '{"rows":1234}',
    });
    expectNoSecrets(h, replies, [SECRETS.awsSecretKey]);
  });

  it.each([
    [
      'broken',
      /^Step Functions run .+ failed \(FAILED\): States.TaskFailed: Lambda orders-load returned 500/,
    ],
    ['slow', /^Step Functions run .+ failed \(TIMED_OUT\): States.Timeout: heartbeat missed/],
  ])('fails an execution of %s naming the state, error and cause', async (machine, message) => {
    const { final } = await pollToEnd(
      h,
      dataJob({ stepFunctions: { stateMachineArn: machines[machine] } }, { workflow: uniqueWorkflow() }),
      sfn.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(message);
  });

  it('reports an execution stopped by someone else as cancelled', async () => {
    const request = dataJob(
      { stepFunctions: { stateMachineArn: machines.long, name: 'stopped' } },
      { workflow: uniqueWorkflow() },
    );
    await h.execute(request);
    const [execution] = ownExecutions('stopped-');
    execution.lifecycle.redirect([{ state: 'ABORTED' }]);
    const { final } = await pollToEnd(h, request, sfn.server);
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(/^Step Functions run .+ was cancelled \(ABORTED\)/);
  });

  it('keeps a step to one execution across concurrent calls, a restart, and a restart after the end', async () => {
    const request = dataJob(
      { stepFunctions: { stateMachineArn: machines.orders, name: 'once' } },
      { workflow: uniqueWorkflow() },
    );
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    await withSidecar(env(sfn), async (restarted) => {
      const { final } = await pollToEnd(restarted, request, sfn.server);
      expect([final.node?.phase, outputs(final).runId]).toEqual(['Succeeded', runId]);
    });
    await withSidecar(env(sfn), async (again) => {
      const before = sfn.count('StartExecution');
      const { final } = await pollToEnd(again, request, sfn.server);
      expect([final.node?.phase, outputs(final).runId]).toEqual(['Succeeded', runId]);
      expect(sfn.count('StartExecution') - before).toBe(1); // refused with ExecutionAlreadyExists, then followed
    });
    expect(ownExecutions('once-')).toHaveLength(1);
  });

  it('rides out throttling as the SDK retries it, then 5xx and throttling past its retries', async () => {
    const request = dataJob(
      { stepFunctions: { stateMachineArn: machines.orders, name: 'throttled' } },
      { workflow: uniqueWorkflow() },
    );
    sfn.throttle('StartExecution', 2);
    const started = await h.execute(request);
    expect(started.body.node?.phase).toBe('Running');
    expect(sfn.count('StartExecution')).toBeGreaterThanOrEqual(3);
    expect(ownExecutions('throttled-')).toHaveLength(1);
    sfn.failNext('DescribeExecution', new AwsError('InternalServerError', 'internal failure', 500), 3);
    expect((await h.execute(request)).body.node?.message).toMatch(
      /stepFunctions: DescribeExecution → 500 InternalServerError: internal failure; retrying/,
    );
    sfn.throttle('DescribeExecution', 3, 'TooManyRequestsException');
    expect((await h.execute(request)).body.node?.message).toMatch(
      /400 TooManyRequestsException: Rate exceeded; retrying/,
    );
    const { final } = await pollToEnd(h, request, sfn.server);
    expect(final.node?.phase).toBe('Succeeded');
  });

  it('stops the execution on timeout, then fails', async () => {
    const request = dataJob(
      { stepFunctions: { stateMachineArn: machines.long, name: 'late' }, timeout: '1s', pollInterval: '5s' },
      { workflow: uniqueWorkflow() },
    );
    expect((await h.execute(request)).body.requeue).toBe('1s');
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(
      /^Step Functions run .+ timed out after 1s and was cancelled \(last state RUNNING\)/,
    );
    const [execution] = ownExecutions('late-');
    expect(execution.stopped).toEqual({
      error: 'Argo.Cancelled',
      cause: 'stopped by the Argo workflow (timeout or stop)',
    });
    expect(execution.lifecycle.state).toBe('ABORTED');
  });

  it('fails naming the field of a bad body, and the AWS reason of a refused call', async () => {
    const bad = await h.execute(dataJob({ stepFunctions: { stateMachineArn: 'orders' } }));
    expect(bad.body.node).toEqual({
      phase: 'Failed',
      message:
        'data-job: invalid config: stepFunctions.stateMachineArn: must be a state machine ARN (arn:aws:states:<region>:<account>:stateMachine:<name>)',
    });
    const missing = await h.execute(
      dataJob(
        {
          stepFunctions: { stateMachineArn: sfn.addStateMachine({ name: 'gone' }).replace('gone', 'absent') },
        },
        { workflow: uniqueWorkflow() },
      ),
    );
    expect(missing.body.node?.phase).toBe('Failed');
    expect(missing.body.node?.message).toMatch(
      /^stepFunctions: StartExecution → 400 StateMachineDoesNotExist: State Machine Does Not Exist/,
    );
  });

  it('fails with the signature refusal of a wrong secret, which appears nowhere', async () => {
    const wrong = 'wrong-aws-secret-key-0000000000000000000';
    await withSidecar({ ...env(sfn), STEP_FUNCTIONS_SECRET_ACCESS_KEY: wrong }, async (wh) => {
      const reply = await wh.execute(
        dataJob({ stepFunctions: { stateMachineArn: machines.orders } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node?.message).toMatch(
        /^stepFunctions: StartExecution → 403 InvalidSignatureException/,
      );
      expectNoSecrets(wh, [reply.body], [wrong]);
    });
  });

  it('masks the secret even when the upstream echoes the request', async () => {
    await withStandIn(new StepFunctionsStandIn({ keys: [KEYS] }), async (echo) => {
      const arn = echo.addStateMachine({ name: 'orders' });
      echo.hostile = { mode: 'echo' };
      await withSidecar(
        { ...env(echo), STEP_FUNCTIONS_SESSION_TOKEN: 'FwoGZXIvYXdzE2eSessionToken0123456789' },
        async (eh) => {
          const reply = await eh.execute(
            dataJob({ stepFunctions: { stateMachineArn: arn } }, { workflow: uniqueWorkflow() }),
          );
          expect(reply.body.node?.phase).toBe('Failed');
          expectNoSecrets(eh, [reply.body], [SECRETS.awsSecretKey, 'FwoGZXIvYXdzE2eSessionToken0123456789']);
        },
      );
    });
  });

  it('names the variable to set when the body picks an unconfigured connection', async () => {
    const reply = await h.execute(
      dataJob({ stepFunctions: { stateMachineArn: machines.orders }, connection: 'prod' }),
    );
    expect(reply.body.node?.phase).toBe('Failed');
    expect(reply.body.node?.message).toContain('STEP_FUNCTIONS_PROD_REGION');
  });
});
