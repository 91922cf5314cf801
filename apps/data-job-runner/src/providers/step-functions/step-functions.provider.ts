import type { DescribeExecutionCommandOutput, SFNClient } from '@aws-sdk/client-sfn';
import { UpstreamError, type Redactor } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { awsCall, awsErrorCode } from '../../aws/aws-call.js';
import { lazyAwsClient } from '../../aws/lazy-aws-client.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import type { JobRun, RunExtras, RunRef } from '../../job/job-run.js';
import { stepFunctionsExecutionName } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import type { StepFunctionsBlock } from './step-functions-block.dto.js';
import { mapStepFunctionsState } from './step-functions-states.js';

const UPSTREAM = 'stepFunctions';
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
export class StepFunctionsProvider implements DataJobProvider<StepFunctionsBlock> {
  private readonly aws: () => Promise<{ sdk: typeof import('@aws-sdk/client-sfn'); client: SFNClient }>;

  constructor(
    private readonly connection: AwsConnection,
    context: { timeoutMs: number; redactor: Redactor },
  ) {
    this.aws = lazyAwsClient(
      () => import('@aws-sdk/client-sfn'),
      (sdk, config) => new sdk.SFNClient(config as never),
      connection,
      context,
    );
  }

  async start({ block, key, signal }: StartRequest<StepFunctionsBlock>): Promise<JobRun> {
    const name = stepFunctionsExecutionName(key, block.name);
    const input = typeof block.input === 'string' ? block.input : JSON.stringify(block.input ?? {});
    let arn: string;
    try {
      const started = await awsCall(UPSTREAM, 'StartExecution', async () => {
        const { sdk, client } = await this.aws();
        return client.send(
          new sdk.StartExecutionCommand({
            stateMachineArn: block.stateMachineArn,
            name,
            input,
            traceHeader: block.traceHeader,
          }),
          { abortSignal: signal },
        );
      });
      if (!started.executionArn)
        throw UpstreamError.permanent(`${UPSTREAM}: StartExecution returned no executionArn`);
      arn = started.executionArn;
    } catch (err) {
      // Ours, closed (a restarted sidecar, a requeue after the end): follow it rather than start another.
      if (awsErrorCode(err) !== 'ExecutionAlreadyExists') throw err;
      arn = executionArn(block.stateMachineArn, name);
    }
    return {
      ref: { runId: arn },
      url: this.consoleUrl(arn),
      state: 'queued',
      upstreamState: 'STARTED',
      provisional: true,
    };
  }

  async poll({ ref, signal }: PollRequest<StepFunctionsBlock>): Promise<JobRun> {
    const execution = await awsCall(UPSTREAM, 'DescribeExecution', async () => {
      const { sdk, client } = await this.aws();
      return client.send(new sdk.DescribeExecutionCommand({ executionArn: ref.runId }), {
        abortSignal: signal,
      });
    });
    return this.toJobRun(ref, execution);
  }

  /** Stops a running execution; one that no longer exists or has ended needs nothing. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    try {
      await awsCall(UPSTREAM, 'StopExecution', async () => {
        const { sdk, client } = await this.aws();
        return client.send(
          new sdk.StopExecutionCommand({
            executionArn: ref.runId,
            error: 'Argo.Cancelled',
            cause: 'stopped by the Argo workflow (timeout or stop)',
          }),
          { abortSignal: signal },
        );
      });
    } catch (err) {
      if (awsErrorCode(err) !== 'ExecutionDoesNotExist') throw err;
    }
  }

  /** The execution's output, from the last reply (no request). */
  async finish(run: JobRun): Promise<RunExtras> {
    const output = (run.raw as DescribeExecutionCommandOutput | undefined)?.output;
    return run.state === 'succeeded' && typeof output === 'string'
      ? { outputs: { output: clipMasked(output, MAX_OUTPUT) } }
      : { outputs: {} };
  }

  private toJobRun(ref: RunRef, execution: DescribeExecutionCommandOutput): JobRun {
    const mapped = mapStepFunctionsState(execution.status, execution.error, execution.cause);
    return {
      ref,
      url: this.consoleUrl(ref.runId),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: mapped.message === undefined ? undefined : clipMasked(mapped.message, 500),
      startedAt: execution.startDate?.getTime(),
      finishedAt: execution.stopDate?.getTime(),
      extras: execution.name ? { executionName: execution.name } : undefined,
      raw: execution,
    };
  }

  private consoleUrl(arn: string): string {
    const region = this.connection.region;
    return `https://${region}.console.aws.amazon.com/states/home?region=${region}#/v2/executions/details/${arn}`;
  }
}

export const stepFunctionsModule: DataJobProviderModule<AwsConnection> = {
  create: (connection, context) => new StepFunctionsProvider(connection, context),
};
