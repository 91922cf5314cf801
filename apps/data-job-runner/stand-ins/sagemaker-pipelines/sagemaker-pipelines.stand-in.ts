import { randomBytes } from 'node:crypto';
import { Lifecycle, type LifecycleStep } from '@app/local-agent';
import {
  AwsError,
  AwsJsonStandIn,
  epochSeconds,
  required,
  type AwsStandInOptions,
  type Json,
} from '../aws/aws-json-stand-in.js';

export type PipelineExecutionStatus = 'Executing' | 'Stopping' | 'Stopped' | 'Failed' | 'Succeeded';

export interface PipelineSpec {
  name: string;
  /** The walk of each execution (default Executing, then Succeeded); a step's message is its FailureReason. */
  lifecycle?: Array<LifecycleStep<PipelineExecutionStatus>>;
}

export interface PipelineExecution {
  arn: string;
  pipelineName: string;
  clientRequestToken: string;
  createdAt: number;
  lifecycle: Lifecycle<PipelineExecutionStatus>;
  stopped: boolean;
  /** The request exactly as received. */
  request: Json;
}

const TERMINAL = new Set<PipelineExecutionStatus>(['Stopped', 'Failed', 'Succeeded']);
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * Amazon SageMaker Pipelines (API reference, awsJson1_1, target prefix `SageMaker`, signing name `sagemaker`):
 * StartPipelineExecution with the required ClientRequestToken (the same token returns the same execution),
 * DescribePipelineExecution, StopPipelineExecution (its own ClientRequestToken; Executing → Stopping → Stopped)
 * and ListPipelineExecutions in `NextToken` pages.
 */
export class SageMakerPipelinesStandIn extends AwsJsonStandIn {
  readonly pipelines = new Map<string, PipelineSpec>();
  readonly executions: PipelineExecution[] = [];

  constructor(options: AwsStandInOptions) {
    super('sagemaker-pipelines', ['sagemaker', 'SageMaker', '1.1', 'com.amazonaws.sagemaker'], options);
    this.operation('StartPipelineExecution', (input) => this.startExecution(input))
      .operation('DescribePipelineExecution', (input) => this.describe(this.execution(input)))
      .operation('StopPipelineExecution', (input) => this.stop(input))
      .operation('ListPipelineExecutions', (input) => this.list(input));
  }

  addPipeline(spec: PipelineSpec): this {
    this.pipelines.set(spec.name, spec);
    return this;
  }

  private startExecution(input: Json): Json {
    const name = String(required(input, 'PipelineName'));
    const pipeline = this.pipelines.get(name.split('/').pop()!);
    if (!pipeline)
      throw new AwsError(
        'ResourceNotFound',
        `Pipeline '${this.arn('sagemaker', `pipeline/${name}`)}' does not exist.`,
      );
    const token = String(required(input, 'ClientRequestToken'));
    if (!TOKEN.test(token))
      throw new AwsError(
        'ValidationException',
        "1 validation error detected: Value at 'clientRequestToken' failed to satisfy constraint: Member must have length greater than or equal to 32",
      );
    const existing = this.executions.find(
      (e) => e.pipelineName === pipeline.name && e.clientRequestToken === token,
    );
    if (existing) return { PipelineExecutionArn: existing.arn };
    const execution: PipelineExecution = {
      arn: this.arn('sagemaker', `pipeline/${pipeline.name}/execution/${randomBytes(6).toString('hex')}`),
      pipelineName: pipeline.name,
      clientRequestToken: token,
      createdAt: Date.now(),
      lifecycle: new Lifecycle<PipelineExecutionStatus>(
        pipeline.lifecycle ?? [{ state: 'Executing', polls: 2 }, { state: 'Succeeded' }],
      ),
      stopped: false,
      request: input,
    };
    this.executions.push(execution);
    return { PipelineExecutionArn: execution.arn };
  }

  private execution(input: Json): PipelineExecution {
    const arn = String(required(input, 'PipelineExecutionArn'));
    const execution = this.executions.find((e) => e.arn === arn);
    if (!execution) throw new AwsError('ResourceNotFound', `Pipeline execution '${arn}' does not exist.`);
    return execution;
  }

  private describe(execution: PipelineExecution): Json {
    const step = execution.lifecycle.read();
    const ended = TERMINAL.has(step.state) ? (execution.lifecycle.endedAt ?? Date.now()) : undefined;
    const request = execution.request;
    return {
      PipelineArn: this.arn('sagemaker', `pipeline/${execution.pipelineName}`),
      PipelineExecutionArn: execution.arn,
      ...(typeof request.PipelineExecutionDisplayName === 'string' && {
        PipelineExecutionDisplayName: request.PipelineExecutionDisplayName,
      }),
      PipelineExecutionStatus: step.state,
      ...(step.message !== undefined && { FailureReason: step.message }),
      CreationTime: epochSeconds(execution.createdAt),
      LastModifiedTime: epochSeconds(ended ?? execution.createdAt),
    };
  }

  private stop(input: Json): Json {
    const execution = this.execution(input);
    required(input, 'ClientRequestToken');
    if (!TERMINAL.has(execution.lifecycle.state)) {
      execution.stopped = true;
      execution.lifecycle.redirect([{ state: 'Stopping' }, { state: 'Stopped' }]);
    }
    return { PipelineExecutionArn: execution.arn };
  }

  private list(input: Json): Json {
    const name = String(required(input, 'PipelineName'));
    const all = this.executions.filter((e) => e.pipelineName === name).reverse();
    const max = typeof input.MaxResults === 'number' ? Math.min(input.MaxResults, 100) : 10;
    const start =
      typeof input.NextToken === 'string' ? Number(Buffer.from(input.NextToken, 'base64url').toString()) : 0;
    const next =
      start + max < all.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
    return {
      PipelineExecutionSummaries: all.slice(start, start + max).map((e) => ({
        PipelineExecutionArn: e.arn,
        StartTime: epochSeconds(e.createdAt),
        PipelineExecutionStatus: e.lifecycle.state,
      })),
      ...(next && { NextToken: next }),
    };
  }
}
