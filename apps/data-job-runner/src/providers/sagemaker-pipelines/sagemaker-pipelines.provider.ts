import type { Redactor } from '@app/plugin-kit';
import { AwsJobProvider } from '../../aws/aws-job-provider.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import { stringMap } from '../../dto/validators.js';
import { isTerminal, type JobRun, type RunRef } from '../../job/job-run.js';
import { sagemakerClientRequestToken } from '../../job/run-keys.js';
import type { DataJobProviderModule, PollRequest, StartRequest } from '../data-job-provider.js';
import { SagemakerPipelinesBlock } from './sagemaker-pipelines-block.dto.js';
import { mapSagemakerPipelinesState } from './sagemaker-pipelines-states.js';

/**
 * Amazon SageMaker Pipelines executions. One execution per step through StartPipelineExecution's
 * ClientRequestToken, derived from the execution key: the same token returns the execution it started.
 */
export class SagemakerPipelinesProvider extends AwsJobProvider<
  typeof import('@aws-sdk/client-sagemaker'),
  SagemakerPipelinesBlock
> {
  constructor(connection: AwsConnection, context: { timeoutMs: number; redactor: Redactor }) {
    super('sagemakerPipelines', connection, context, {
      load: () => import('@aws-sdk/client-sagemaker'),
      client: (sdk, config) => new sdk.SageMakerClient(config as never),
    });
  }

  async start({ block, key, signal }: StartRequest<SagemakerPipelinesBlock>): Promise<JobRun> {
    const started = await this.send(
      'StartPipelineExecution',
      (sdk) =>
        new sdk.StartPipelineExecutionCommand({
          PipelineName: block.pipelineName,
          ClientRequestToken: sagemakerClientRequestToken(key),
          PipelineParameters: Object.entries(stringMap(block.parameters) ?? {}).map(([Name, Value]) => ({
            Name,
            Value,
          })),
          PipelineExecutionDisplayName: block.displayName,
          PipelineExecutionDescription: block.description,
        }),
      signal,
    );
    const arn = this.returned(started.PipelineExecutionArn, 'StartPipelineExecution', 'PipelineExecutionArn');
    return this.provisional({ runId: arn }, 'STARTED');
  }

  async poll({ ref, signal }: PollRequest<SagemakerPipelinesBlock>): Promise<JobRun> {
    const execution = await this.send(
      'DescribePipelineExecution',
      (sdk) => new sdk.DescribePipelineExecutionCommand({ PipelineExecutionArn: ref.runId }),
      signal,
    );
    const mapped = mapSagemakerPipelinesState(execution.PipelineExecutionStatus, execution.FailureReason);
    return this.jobRun(ref, {
      mapped,
      startedAt: execution.CreationTime?.getTime(),
      finishedAt: isTerminal(mapped.state) ? execution.LastModifiedTime?.getTime() : undefined,
      extras: execution.PipelineArn ? { pipelineArn: execution.PipelineArn } : undefined,
    });
  }

  /** Stops the execution (Stopping → Stopped); its token makes a repeated stop one stop. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    await this.send(
      'StopPipelineExecution',
      (sdk) =>
        new sdk.StopPipelineExecutionCommand({
          PipelineExecutionArn: ref.runId,
          // One token per execution: a repeated stop is the same request.
          ClientRequestToken: `stop-${ref.runId.split('/').pop()}`.padEnd(32, '0'),
        }),
      signal,
    );
  }

  protected consoleUrl(ref: RunRef): string {
    const [, pipeline, , id] = ref.runId.split(':').pop()!.split('/');
    return this.console('sagemaker', `/pipelines/${pipeline}/executions/${id}`);
  }
}

export const sagemakerPipelinesModule: DataJobProviderModule<AwsConnection, SagemakerPipelinesBlock> = {
  block: SagemakerPipelinesBlock,
  create: (connection, context) => new SagemakerPipelinesProvider(connection, context),
};
