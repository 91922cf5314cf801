import { Lifecycle, type LifecycleStep } from '@app/local-agent';
import {
  AwsError,
  AwsJsonStandIn,
  epochSeconds,
  required,
  type AwsStandInOptions,
  type Json,
} from '../aws/aws-json-stand-in.js';

export type SfnStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE';

export interface StateMachineSpec {
  name: string;
  type?: 'STANDARD' | 'EXPRESS';
  /** The walk of each execution (default RUNNING, then SUCCEEDED). */
  lifecycle?: Array<LifecycleStep<SfnStatus>>;
  /** The output of a SUCCEEDED execution (JSON text). */
  output?: string;
  /** `error` and `cause` of a FAILED or TIMED_OUT one. */
  failure?: { error: string; cause: string };
}

export interface SfnExecution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  input: string;
  startDate: number;
  stopDate?: number;
  lifecycle: Lifecycle<SfnStatus>;
  stopped?: { error?: string; cause?: string };
  /** The request exactly as received. */
  request: Json;
}

const NAME = /^[A-Za-z0-9_-]{1,80}$/;
const TERMINAL = new Set<SfnStatus>(['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED']);

/**
 * AWS Step Functions (API reference, awsJson1_0, target prefix `AWSStepFunctions`, signing name `states`):
 * StartExecution with the name idempotency of Standard workflows (the same name and input as a running
 * execution returns it; a closed one, or other input, is ExecutionAlreadyExists), DescribeExecution,
 * StopExecution and ListExecutions with `nextToken` pages.
 */
export class StepFunctionsStandIn extends AwsJsonStandIn {
  readonly machines = new Map<string, StateMachineSpec>();
  readonly executions = new Map<string, SfnExecution>();

  constructor(options: AwsStandInOptions) {
    super(
      'step-functions',
      ['states', 'AWSStepFunctions', '1.0', 'com.amazonaws.swf.service.v2.model'],
      options,
    );
    this.operation('StartExecution', (input) => this.startExecution(input))
      .operation('DescribeExecution', (input) => this.describe(this.execution(input)))
      .operation('StopExecution', (input) => this.stop(input))
      .operation('ListExecutions', (input) => this.list(input));
  }

  /** Adds a state machine; returns its ARN. */
  addStateMachine(spec: StateMachineSpec): string {
    const arn = this.arn('states', `stateMachine:${spec.name}`);
    this.machines.set(arn, spec);
    return arn;
  }

  private startExecution(input: Json): Json {
    const stateMachineArn = String(required(input, 'stateMachineArn'));
    const machine = this.machines.get(stateMachineArn);
    if (!machine)
      throw new AwsError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${stateMachineArn}'`);
    const name = typeof input.name === 'string' ? input.name : crypto.randomUUID();
    if (!NAME.test(name)) throw new AwsError('InvalidName', `Invalid Name: '${name}'`);
    const text = typeof input.input === 'string' ? input.input : '{}';
    try {
      JSON.parse(text);
    } catch {
      throw new AwsError(
        'InvalidExecutionInput',
        `Invalid State Machine Execution Input: '${text.slice(0, 100)}'`,
      );
    }
    const executionArn = stateMachineArn.replace(':stateMachine:', ':execution:') + `:${name}`;
    const existing = this.executions.get(executionArn);
    if (existing) {
      // Standard workflows only: an Express workflow starts a new execution every time.
      const same = existing.input === text && !TERMINAL.has(existing.lifecycle.state);
      if (same && machine.type !== 'EXPRESS')
        return { executionArn, startDate: epochSeconds(existing.startDate) };
      throw new AwsError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    const lifecycle = new Lifecycle<SfnStatus>(
      machine.lifecycle ?? [{ state: 'RUNNING', polls: 2 }, { state: 'SUCCEEDED' }],
    );
    const execution: SfnExecution = {
      executionArn,
      stateMachineArn,
      name,
      input: text,
      startDate: Date.now(),
      lifecycle,
      request: input,
    };
    this.executions.set(executionArn, execution);
    return { executionArn, startDate: epochSeconds(execution.startDate) };
  }

  private execution(input: Json): SfnExecution {
    const arn = String(required(input, 'executionArn'));
    const execution = this.executions.get(arn);
    if (!execution) throw new AwsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
    return execution;
  }

  private describe(execution: SfnExecution): Json {
    const { state: status } = execution.lifecycle.read();
    const machine = this.machines.get(execution.stateMachineArn)!;
    if (TERMINAL.has(status)) execution.stopDate ??= execution.lifecycle.endedAt ?? Date.now();
    const failure =
      status === 'ABORTED'
        ? execution.stopped
        : status === 'FAILED' || status === 'TIMED_OUT'
          ? machine.failure
          : undefined;
    return {
      executionArn: execution.executionArn,
      stateMachineArn: execution.stateMachineArn,
      name: execution.name,
      status,
      startDate: epochSeconds(execution.startDate),
      ...(execution.stopDate !== undefined && { stopDate: epochSeconds(execution.stopDate) }),
      input: execution.input,
      inputDetails: { included: true },
      ...(status === 'SUCCEEDED' && { output: machine.output ?? '{}', outputDetails: { included: true } }),
      ...(failure?.error !== undefined && { error: failure.error }),
      ...(failure?.cause !== undefined && { cause: failure.cause }),
    };
  }

  private stop(input: Json): Json {
    const execution = this.execution(input);
    if (!TERMINAL.has(execution.lifecycle.state)) {
      execution.stopped = {
        error: typeof input.error === 'string' ? input.error : undefined,
        cause: typeof input.cause === 'string' ? input.cause : undefined,
      };
      execution.lifecycle.redirect([{ state: 'ABORTED' }]);
      execution.stopDate = Date.now();
    }
    return { stopDate: epochSeconds(execution.stopDate ?? Date.now()) };
  }

  private list(input: Json): Json {
    const stateMachineArn = String(required(input, 'stateMachineArn'));
    if (!this.machines.has(stateMachineArn))
      throw new AwsError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${stateMachineArn}'`);
    const max =
      typeof input.maxResults === 'number' && input.maxResults > 0 ? Math.min(input.maxResults, 1000) : 100;
    const all = [...this.executions.values()].filter((e) => e.stateMachineArn === stateMachineArn).reverse();
    const start =
      typeof input.nextToken === 'string' ? Number(Buffer.from(input.nextToken, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0) throw new AwsError('InvalidToken', 'Invalid Token');
    const page = all.slice(start, start + max);
    const next =
      start + max < all.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
    return {
      executions: page.map((e) => ({
        executionArn: e.executionArn,
        stateMachineArn: e.stateMachineArn,
        name: e.name,
        status: e.lifecycle.state,
        startDate: epochSeconds(e.startDate),
      })),
      ...(next && { nextToken: next }),
    };
  }
}
