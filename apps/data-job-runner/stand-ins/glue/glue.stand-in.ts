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

export type GlueRunState =
  | 'STARTING'
  | 'RUNNING'
  | 'STOPPING'
  | 'STOPPED'
  | 'SUCCEEDED'
  | 'FAILED'
  | 'TIMEOUT'
  | 'ERROR'
  | 'WAITING'
  | 'EXPIRED';

export interface GlueJobSpec {
  name: string;
  /** The walk of each run (default STARTING, RUNNING, SUCCEEDED); a step's message is its ErrorMessage. */
  lifecycle?: Array<LifecycleStep<GlueRunState>>;
}

export interface GlueRun {
  id: string;
  jobName: string;
  startedOn: number;
  lifecycle: Lifecycle<GlueRunState>;
  stopped: boolean;
  /** The request exactly as received. */
  request: Json;
}

const TERMINAL = new Set<GlueRunState>(['STOPPED', 'SUCCEEDED', 'FAILED', 'TIMEOUT', 'ERROR', 'EXPIRED']);

/**
 * AWS Glue jobs (API reference, awsJson1_1, target prefix `AWSGlue`, signing name `glue`): StartJobRun (no
 * idempotency token: every call is a new run), GetJobRun, GetJobRuns newest first in `NextToken` pages (at most
 * 200), BatchStopJobRun (per-run errors in `Errors`, a run goes STOPPING → STOPPED).
 */
export class GlueStandIn extends AwsJsonStandIn {
  readonly jobs = new Map<string, GlueJobSpec>();
  readonly runs: GlueRun[] = [];

  constructor(options: AwsStandInOptions) {
    super('glue', ['glue', 'AWSGlue', '1.1', 'com.amazonaws.glue'], options);
    this.operation('StartJobRun', (input) => this.startJobRun(input))
      .operation('GetJobRun', (input) => ({ JobRun: this.detail(this.run(input), true) }))
      .operation('GetJobRuns', (input) => this.list(input))
      .operation('BatchStopJobRun', (input) => this.stop(input));
  }

  addJob(spec: GlueJobSpec): this {
    this.jobs.set(spec.name, spec);
    return this;
  }

  /** Runs started by someone else (a trigger, the console), to fill GetJobRuns' pages. */
  addForeignRuns(jobName: string, count: number): void {
    for (let i = 0; i < count; i++) this.startJobRun({ JobName: jobName, Arguments: { '--date': 'other' } });
  }

  private job(name: string): GlueJobSpec {
    const job = this.jobs.get(name);
    if (!job)
      throw new AwsError('EntityNotFoundException', `Failed to start job run due to missing metadata`);
    return job;
  }

  private startJobRun(input: Json): Json {
    const job = this.job(String(required(input, 'JobName')));
    const run: GlueRun = {
      id: `jr_${randomBytes(32).toString('hex')}`,
      jobName: job.name,
      startedOn: Date.now(),
      lifecycle: new Lifecycle<GlueRunState>(
        job.lifecycle ?? [{ state: 'STARTING' }, { state: 'RUNNING' }, { state: 'SUCCEEDED' }],
      ),
      stopped: false,
      request: input,
    };
    this.runs.push(run);
    return { JobRunId: run.id };
  }

  private run(input: Json): GlueRun {
    const jobName = String(required(input, 'JobName'));
    const id = String(required(input, 'RunId'));
    const run = this.runs.find((r) => r.jobName === jobName && r.id === id);
    if (!run) throw new AwsError('EntityNotFoundException', `Job Run ${id} not found for job ${jobName}`);
    return run;
  }

  private detail(run: GlueRun, read: boolean): Json {
    const step = read ? run.lifecycle.read() : run.lifecycle.peek();
    const ended = TERMINAL.has(step.state) ? (run.lifecycle.endedAt ?? Date.now()) : undefined;
    return {
      Id: run.id,
      Attempt: 0,
      JobName: run.jobName,
      JobMode: 'SCRIPT',
      StartedOn: epochSeconds(run.startedOn),
      LastModifiedOn: epochSeconds(ended ?? run.startedOn),
      ...(ended !== undefined && { CompletedOn: epochSeconds(ended) }),
      JobRunState: step.state,
      Arguments: run.request.Arguments ?? {},
      ...(step.message !== undefined && { ErrorMessage: step.message }),
      ExecutionTime: ended === undefined ? 0 : Math.round((ended - run.startedOn) / 1000),
      Timeout: run.request.Timeout ?? 2880,
      GlueVersion: '4.0',
      ...(run.request.WorkerType !== undefined && { WorkerType: run.request.WorkerType }),
      ...(run.request.NumberOfWorkers !== undefined && { NumberOfWorkers: run.request.NumberOfWorkers }),
    };
  }

  private list(input: Json): Json {
    const jobName = String(required(input, 'JobName'));
    this.job(jobName);
    const max = typeof input.MaxResults === 'number' ? input.MaxResults : 100;
    if (max < 1 || max > 200)
      throw new AwsError(
        'ValidationException',
        "1 validation error detected: Value at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 200",
      );
    const all = this.runs.filter((r) => r.jobName === jobName).reverse();
    const start =
      typeof input.NextToken === 'string' ? Number(Buffer.from(input.NextToken, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0)
      throw new AwsError('InvalidInputException', 'Invalid pagination token');
    const next =
      start + max < all.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
    return {
      JobRuns: all.slice(start, start + max).map((r) => this.detail(r, false)),
      ...(next && { NextToken: next }),
    };
  }

  private stop(input: Json): Json {
    const jobName = String(required(input, 'JobName'));
    const ids = required(input, 'JobRunIds') as string[];
    const ok: Json[] = [];
    const errors: Json[] = [];
    for (const id of ids) {
      const run = this.runs.find((r) => r.jobName === jobName && r.id === id);
      if (!run)
        errors.push({
          JobName: jobName,
          JobRunId: id,
          ErrorDetail: { ErrorCode: 'EntityNotFoundException', ErrorMessage: `Job Run ${id} not found` },
        });
      else if (TERMINAL.has(run.lifecycle.state))
        errors.push({
          JobName: jobName,
          JobRunId: id,
          ErrorDetail: { ErrorCode: 'InvalidInputException', ErrorMessage: `Job Run ${id} is not running` },
        });
      else {
        run.stopped = true;
        run.lifecycle.redirect([{ state: 'STOPPING' }, { state: 'STOPPED' }]);
        ok.push({ JobName: jobName, JobRunId: id });
      }
    }
    return { SuccessfulSubmissions: ok, Errors: errors };
  }
}
