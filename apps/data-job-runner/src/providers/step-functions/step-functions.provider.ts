import type { DescribeExecutionCommandOutput } from '@aws-sdk/client-sfn';
import type { Redactor } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { awsErrorCode } from '../../aws/aws-call.js';
import { AwsJobProvider } from '../../aws/aws-job-provider.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import type { JobRun, RunExtras, RunRef } from '../../job/job-run.js';
import { stepFunctionsExecutionName } from '../../job/run-keys.js';
import type { DataJobProviderModule, PollRequest, StartRequest } from '../data-job-provider.js';
import { StepFunctionsBlock } from './step-functions-block.dto.js';
import { mapStepFunctionsState } from './step-functions-states.js';

/** The execution output kept as the `output` parameter. */
const MAX_OUTPUT = 64 * 1024;

/** `arn:…:stateMachine:<machine>[:<version or alias>]` → `arn:…:execution:<machine>:<name>`. */
export function executionArn(stateMachineArn: string, name: string): string {
  const [head, machine] = stateMachineArn.split(':stateMachine:');
  return `${head}:execution:${machine.split(':')[0]}:${name}`;
}

/**
 * AWS Step Functions, Standard workflows. One execution per step through its `name`, derived from the execution
 * key: StartExecution with the name and input of a running execution returns that execution, and for a closed
 * one answers ExecutionAlreadyExists, when the plugin follows the execution of that name.
 */
export class StepFunctionsProvider extends AwsJobProvider<
  typeof import('@aws-sdk/client-sfn'),
  StepFunctionsBlock
> {
  constructor(connection: AwsConnection, context: { timeoutMs: number; redactor: Redactor }) {
    super('stepFunctions', connection, context, {
      load: () => import('@aws-sdk/client-sfn'),
      client: (sdk, config) => new sdk.SFNClient(config as never),
    });
  }

  async start({ block, key, signal }: StartRequest<StepFunctionsBlock>): Promise<JobRun> {
    const name = stepFunctionsExecutionName(key, block.name);
    const input = typeof block.input === 'string' ? block.input : JSON.stringify(block.input ?? {});
    let arn: string;
    try {
      const started = await this.send(
        'StartExecution',
        (sdk) =>
          new sdk.StartExecutionCommand({
            stateMachineArn: block.stateMachineArn,
            name,
            input,
            traceHeader: block.traceHeader,
          }),
        signal,
      );
      arn = this.returned(started.executionArn, 'StartExecution', 'executionArn');
    } catch (err) {
      // Ours, closed (a restarted sidecar, a requeue after the end): follow it rather than start another.
      if (awsErrorCode(err) !== 'ExecutionAlreadyExists') throw err;
      arn = executionArn(block.stateMachineArn, name);
    }
    return this.provisional({ runId: arn }, 'STARTED');
  }

  async poll({ ref, signal }: PollRequest<StepFunctionsBlock>): Promise<JobRun> {
    const execution = await this.send(
      'DescribeExecution',
      (sdk) => new sdk.DescribeExecutionCommand({ executionArn: ref.runId }),
      signal,
    );
    return this.jobRun(ref, {
      mapped: mapStepFunctionsState(execution.status, execution.error, execution.cause),
      startedAt: execution.startDate?.getTime(),
      finishedAt: execution.stopDate?.getTime(),
      extras: execution.name ? { executionName: execution.name } : undefined,
      raw: execution,
    });
  }

  /** Stops a running execution; one that no longer exists or has ended needs nothing. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    await this.sendUnless(
      'ExecutionDoesNotExist',
      'StopExecution',
      (sdk) =>
        new sdk.StopExecutionCommand({
          executionArn: ref.runId,
          error: 'Argo.Cancelled',
          cause: 'stopped by the Argo workflow (timeout or stop)',
        }),
      signal,
    );
  }

  /** The execution's output, from the last reply (no request). */
  async finish(run: JobRun): Promise<RunExtras> {
    const output = (run.raw as DescribeExecutionCommandOutput | undefined)?.output;
    return run.state === 'succeeded' && typeof output === 'string'
      ? { outputs: { output: clipMasked(output, MAX_OUTPUT) } }
      : { outputs: {} };
  }

  protected consoleUrl(ref: RunRef): string {
    return this.console('states', `/v2/executions/details/${ref.runId}`);
  }
}

export const stepFunctionsModule: DataJobProviderModule<AwsConnection, StepFunctionsBlock> = {
  block: StepFunctionsBlock,
  create: (connection, context) => new StepFunctionsProvider(connection, context),
};
