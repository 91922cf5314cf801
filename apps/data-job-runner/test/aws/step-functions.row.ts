import { AwsError } from '../../stand-ins/aws/aws-json-stand-in.js';
import {
  StepFunctionsStandIn,
  type StateMachineSpec,
} from '../../stand-ins/step-functions/step-functions.stand-in.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  SECRETS,
  uniqueWorkflow,
  withSidecar,
  withStandIn,
} from '../support.js';
import { awsEnv, type AwsBackend } from './aws-backend-table.js';

/** State machine ARNs by name. */
const machines: Record<string, string> = {};
const own = (sfn: StepFunctionsStandIn, prefix: string) =>
  [...sfn.executions.values()].filter((e) => e.name.startsWith(prefix));
const execution = (machine: string, name?: string) => ({
  stepFunctions: { stateMachineArn: machines[machine], ...(name && { name }) },
});

export const stepFunctionsRow: AwsBackend<StepFunctionsStandIn> = {
  label: 'Step Functions',
  prefix: 'STEP_FUNCTIONS',
  accessKeyId: 'AKIAE2ESTEPFUNCTIONS',
  standIn: (keys) => new StepFunctionsStandIn({ keys: [keys] }),
  setup: (sfn) => {
    const add = (spec: StateMachineSpec) => (machines[spec.name] = sfn.addStateMachine(spec));
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
  firstCall: 'StartExecution',
  success: {
    title: 'starts one execution named from the key with the input intact, and waits for success',
    body: () => ({
      stepFunctions: {
        ...execution('orders', 'nightly').stepFunctions,
        input: { date: '2024-01-01', limit: 10 },
      },
    }),
    check: (sfn, { final }) => {
      const [started] = own(sfn, 'nightly-');
      expect(started.name).toMatch(/^nightly-[0-9a-f]{32}$/);
      expect(JSON.parse(started.input)).toEqual({ date: '2024-01-01', limit: 10 });
      expect(outputs(final)).toEqual({
        provider: 'stepFunctions',
        runId: started.executionArn,
        url: `https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#/v2/executions/details/${started.executionArn}`,
        state: 'succeeded',
        upstreamState: 'SUCCEEDED',
        duration: expect.any(String),
        executionName: started.name,
        output: '{"rows":1234}',
      });
    },
  },
  failures: [
    {
      title: 'fails an execution of broken naming the state, error and cause',
      body: () => execution('broken'),
      message: /^Step Functions run .+ failed \(FAILED\): States.TaskFailed: Lambda orders-load returned 500/,
    },
    {
      title: 'fails an execution of slow naming the state, error and cause',
      body: () => execution('slow'),
      message: /^Step Functions run .+ failed \(TIMED_OUT\): States.Timeout: heartbeat missed/,
    },
  ],
  once: {
    title: 'keeps a step to one execution across concurrent calls, a restart, and a restart after the end',
    body: () => execution('orders', 'once'),
    followToEnd: true,
    check: async ({ s: sfn, env }, runId, request) => {
      await withSidecar(env, async (again) => {
        const before = sfn.count('StartExecution');
        const { final } = await pollToEnd(again, request, sfn.server);
        expect([final.node?.phase, outputs(final).runId]).toEqual(['Succeeded', runId]);
        expect(sfn.count('StartExecution') - before).toBe(1); // refused with ExecutionAlreadyExists, then followed
      });
      expect(own(sfn, 'once-')).toHaveLength(1);
    },
  },
  throttling: {
    title: 'rides out throttling as the SDK retries it, then 5xx and throttling past its retries',
    body: () => execution('orders', 'throttled'),
    start: { operation: 'StartExecution' },
    afterStart: (sfn) => {
      expect(sfn.count('StartExecution')).toBeGreaterThanOrEqual(3);
      expect(own(sfn, 'throttled-')).toHaveLength(1);
    },
    poll: {
      operation: 'DescribeExecution',
      error: new AwsError('InternalServerError', 'internal failure', 500),
      message: /stepFunctions: DescribeExecution → 500 InternalServerError: internal failure; retrying/,
    },
    afterPoll: async ({ s: sfn, h }, request) => {
      sfn.throttle('DescribeExecution', 3, 'TooManyRequestsException');
      expect((await h.execute(request)).body.node?.message).toMatch(
        /400 TooManyRequestsException: Rate exceeded; retrying/,
      );
    },
  },
  timeout: {
    title: 'stops the execution on timeout, then fails',
    body: () => execution('long', 'late'),
    message: /^Step Functions run .+ timed out after 1s and was cancelled \(last state RUNNING\)/,
    check: (sfn) => {
      const [late] = own(sfn, 'late-');
      expect(late.stopped).toEqual({
        error: 'Argo.Cancelled',
        cause: 'stopped by the Argo workflow (timeout or stop)',
      });
      expect(late.lifecycle.state).toBe('ABORTED');
    },
  },
  invalid: [
    {
      body: () => ({ stepFunctions: { stateMachineArn: 'orders' } }),
      message:
        'data-job: invalid config: stepFunctions.stateMachineArn: must be a state machine ARN (arn:aws:states:<region>:<account>:stateMachine:<name>)',
    },
  ],
  refused: {
    body: (sfn) => ({
      stepFunctions: { stateMachineArn: sfn.addStateMachine({ name: 'gone' }).replace('gone', 'absent') },
    }),
    message: /^stepFunctions: StartExecution → 400 StateMachineDoesNotExist: State Machine Does Not Exist/,
  },
  more: (c) => {
    it('reports an execution stopped by someone else as cancelled', async () => {
      const { s: sfn, h } = c();
      const request = dataJob(execution('long', 'stopped'), { workflow: uniqueWorkflow() });
      await h.execute(request);
      own(sfn, 'stopped-')[0].lifecycle.redirect([{ state: 'ABORTED' }]);
      const { final } = await pollToEnd(h, request, sfn.server);
      expect(final.node?.phase).toBe('Failed');
      expect(final.node?.message).toMatch(/^Step Functions run .+ was cancelled \(ABORTED\)/);
    });

    it('masks the secret even when the upstream echoes the request', async () => {
      const { accessKeyId } = stepFunctionsRow;
      await withStandIn(
        new StepFunctionsStandIn({ keys: [{ accessKeyId, secretAccessKey: SECRETS.awsSecretKey }] }),
        async (echo) => {
          const arn = echo.addStateMachine({ name: 'orders' });
          echo.hostile = { mode: 'echo' };
          const token = 'FwoGZXIvYXdzE2eSessionToken0123456789';
          const env = { ...awsEnv(stepFunctionsRow, echo), STEP_FUNCTIONS_SESSION_TOKEN: token };
          await withSidecar(env, async (eh) => {
            const reply = await eh.execute(
              dataJob({ stepFunctions: { stateMachineArn: arn } }, { workflow: uniqueWorkflow() }),
            );
            expect(reply.body.node?.phase).toBe('Failed');
            expectNoSecrets(eh, [reply.body], [SECRETS.awsSecretKey, token]);
          });
        },
      );
    });
  },
};
