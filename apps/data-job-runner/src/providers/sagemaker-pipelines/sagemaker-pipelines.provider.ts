import type { DescribePipelineExecutionCommandOutput, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { UpstreamError, type Redactor } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { awsCall } from '../../aws/aws-call.js';
import { lazyAwsClient } from '../../aws/lazy-aws-client.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import { stringMap } from '../../dto/validators.js';
import type { JobRun, RunRef } from '../../job/job-run.js';
import { sagemakerClientRequestToken } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import type { SagemakerPipelinesBlock } from './sagemaker-pipelines-block.dto.js';
import { mapSagemakerPipelinesState } from './sagemaker-pipelines-states.js';

const UPSTREAM = 'sagemakerPipelines';

type Sdk = typeof import('@aws-sdk/client-sagemaker');

/**
 * Amazon SageMaker Pipelines executions. One execution per step through StartPipelineExecution's
 * ClientRequestToken, derived from the execution key: the same token returns the execution it started.
 */
export class SagemakerPipelinesProvider implements DataJobProvider<SagemakerPipelinesBlock> {
  private readonly aws: () => Promise<{ sdk: Sdk; client: SageMakerClient }>;

  constructor(
    private readonly connection: AwsConnection,
    context: { timeoutMs: number; redactor: Redactor },
  ) {
    this.aws = lazyAwsClient(
      () => import('@aws-sdk/client-sagemaker'),
      (sdk, config) => new sdk.SageMakerClient(config as never),
      connection,
      context,
    );
  }

  async start({ block, key, signal }: StartRequest<SagemakerPipelinesBlock>): Promise<JobRun> {
    const started = await awsCall(UPSTREAM, 'StartPipelineExecution', async () => {
      const { sdk, client } = await this.aws();
      return client.send(
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
        { abortSignal: signal },
      );
    });
    const arn = started.PipelineExecutionArn;
    if (!arn)
      throw UpstreamError.permanent(`${UPSTREAM}: StartPipelineExecution returned no PipelineExecutionArn`);
    return {
      ref: { runId: arn },
      url: this.consoleUrl(arn),
      state: 'queued',
      upstreamState: 'STARTED',
      provisional: true,
    };
  }

  async poll({ ref, signal }: PollRequest<SagemakerPipelinesBlock>): Promise<JobRun> {
    const execution = await awsCall(UPSTREAM, 'DescribePipelineExecution', async () => {
      const { sdk, client } = await this.aws();
      return client.send(new sdk.DescribePipelineExecutionCommand({ PipelineExecutionArn: ref.runId }), {
        abortSignal: signal,
      });
    });
    return this.toJobRun(ref, execution);
  }

  /** Stops the execution (Stopping → Stopped); its token makes a repeated stop one stop. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    await awsCall(UPSTREAM, 'StopPipelineExecution', async () => {
      const { sdk, client } = await this.aws();
      return client.send(
        new sdk.StopPipelineExecutionCommand({
          PipelineExecutionArn: ref.runId,
          // One token per execution: a repeated stop is the same request.
          ClientRequestToken: `stop-${ref.runId.split('/').pop()}`.padEnd(32, '0'),
        }),
        { abortSignal: signal },
      );
    });
  }

  private toJobRun(ref: RunRef, execution: DescribePipelineExecutionCommandOutput): JobRun {
    const mapped = mapSagemakerPipelinesState(execution.PipelineExecutionStatus, execution.FailureReason);
    const terminal =
      mapped.state === 'succeeded' || mapped.state === 'failed' || mapped.state === 'cancelled';
    return {
      ref,
      url: this.consoleUrl(ref.runId),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: mapped.message === undefined ? undefined : clipMasked(mapped.message, 500),
      startedAt: execution.CreationTime?.getTime(),
      finishedAt: terminal ? execution.LastModifiedTime?.getTime() : undefined,
      extras: execution.PipelineArn ? { pipelineArn: execution.PipelineArn } : undefined,
    };
  }

  private consoleUrl(arn: string): string {
    const region = this.connection.region;
    const [, pipeline, , id] = arn.split(':').pop()!.split('/');
    return `https://${region}.console.aws.amazon.com/sagemaker/home?region=${region}#/pipelines/${pipeline}/executions/${id}`;
  }
}

export const sagemakerPipelinesModule: DataJobProviderModule<AwsConnection> = {
  create: (connection, context) => new SagemakerPipelinesProvider(connection, context),
};
