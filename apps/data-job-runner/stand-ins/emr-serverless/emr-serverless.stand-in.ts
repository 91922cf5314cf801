import { randomBytes } from 'node:crypto';
import { Lifecycle, type LifecycleStep } from '@app/local-agent';
import {
  AwsError,
  epochSeconds,
  required,
  type AwsStandInOptions,
  type Json,
} from '../aws/aws-json-stand-in.js';
import { AwsRestStandIn } from '../aws/aws-rest-stand-in.js';

export type EmrJobRunState =
  | 'SUBMITTED'
  | 'PENDING'
  | 'SCHEDULED'
  | 'RUNNING'
  | 'SUCCESS'
  | 'FAILED'
  | 'CANCELLING'
  | 'CANCELLED'
  | 'QUEUED';

export interface EmrApplicationSpec {
  applicationId?: string;
  name: string;
  /** The walk of each job run (default SUBMITTED, RUNNING, SUCCESS); a step's message is its `stateDetails`. */
  lifecycle?: Array<LifecycleStep<EmrJobRunState>>;
}

export interface EmrJobRun {
  applicationId: string;
  jobRunId: string;
  clientToken: string;
  createdAt: number;
  updatedAt: number;
  lifecycle: Lifecycle<EmrJobRunState>;
  cancelled: boolean;
  /** The request body exactly as received. */
  request: Json;
}

const TERMINAL = new Set<EmrJobRunState>(['SUCCESS', 'FAILED', 'CANCELLED']);
const ID = () => `00${randomBytes(7).toString('hex')}`;

/**
 * Amazon EMR Serverless (API reference, REST-JSON, signing name `emr-serverless`): StartJobRun under
 * `/applications/{id}/jobruns` with the required `clientToken` (the same token returns the same job run),
 * `executionRoleArn` and `jobDriver`; GetJobRun; CancelJobRun (DELETE, the run goes CANCELLING → CANCELLED);
 * ListJobRuns with `nextToken` pages.
 */
export class EmrServerlessStandIn extends AwsRestStandIn {
  readonly applications = new Map<string, EmrApplicationSpec>();
  readonly jobRuns: EmrJobRun[] = [];

  constructor(options: AwsStandInOptions) {
    super('emr-serverless', 'emr-serverless', options);
    const runs = '/applications/:applicationId/jobruns';
    this.operation('StartJobRun', 'POST', runs, (req, input) =>
      this.startJobRun(req.params.applicationId, input),
    )
      .operation('ListJobRuns', 'GET', runs, (req) => this.list(req.params.applicationId, req.query))
      .operation('GetJobRun', 'GET', `${runs}/:jobRunId`, (req) => ({
        jobRun: this.describe(this.run(req.params)),
      }))
      .operation('CancelJobRun', 'DELETE', `${runs}/:jobRunId`, (req) => this.cancel(this.run(req.params)));
  }

  addApplication(spec: EmrApplicationSpec): string {
    const id = spec.applicationId ?? ID();
    this.applications.set(id, { ...spec, applicationId: id });
    return id;
  }

  private application(id: string): EmrApplicationSpec {
    const app = this.applications.get(id);
    if (!app) throw new AwsError('ResourceNotFoundException', `Application ${id} does not exist.`, 404);
    return app;
  }

  private startJobRun(applicationId: string, input: Json): Json {
    const app = this.application(applicationId);
    const clientToken = String(required(input, 'clientToken'));
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(clientToken))
      throw new AwsError(
        'ValidationException',
        "1 validation error detected: Value at 'clientToken' failed to satisfy constraint",
      );
    required(input, 'executionRoleArn');
    const driver = required(input, 'jobDriver') as Json;
    if (!driver.sparkSubmit && !driver.hive)
      throw new AwsError('ValidationException', 'jobDriver must specify exactly one of sparkSubmit or hive');
    const existing = this.jobRuns.find(
      (r) => r.applicationId === applicationId && r.clientToken === clientToken,
    );
    if (existing) {
      if (JSON.stringify(existing.request) !== JSON.stringify(input))
        throw new AwsError(
          'ConflictException',
          `A job run with client token ${clientToken} already exists with different parameters.`,
          409,
        );
      return this.started(existing);
    }
    const now = Date.now();
    const run: EmrJobRun = {
      applicationId,
      jobRunId: ID(),
      clientToken,
      createdAt: now,
      updatedAt: now,
      lifecycle: new Lifecycle<EmrJobRunState>(
        app.lifecycle ?? [{ state: 'SUBMITTED' }, { state: 'RUNNING', polls: 2 }, { state: 'SUCCESS' }],
      ),
      cancelled: false,
      request: input,
    };
    this.jobRuns.push(run);
    return this.started(run);
  }

  private started(run: EmrJobRun): Json {
    return {
      applicationId: run.applicationId,
      jobRunId: run.jobRunId,
      arn: this.arn('emr-serverless', `/applications/${run.applicationId}/jobruns/${run.jobRunId}`),
    };
  }

  private run(params: Record<string, string>): EmrJobRun {
    this.application(params.applicationId);
    const run = this.jobRuns.find(
      (r) => r.applicationId === params.applicationId && r.jobRunId === params.jobRunId,
    );
    if (!run)
      throw new AwsError('ResourceNotFoundException', `Job run ${params.jobRunId} does not exist.`, 404);
    return run;
  }

  private describe(run: EmrJobRun): Json {
    const step = run.lifecycle.read();
    const ended = run.lifecycle.endedAt;
    const request = run.request;
    return {
      applicationId: run.applicationId,
      jobRunId: run.jobRunId,
      arn: this.started(run).arn,
      ...(typeof request.name === 'string' && { name: request.name }),
      createdBy: `arn:aws:sts::123456789012:assumed-role/argo-data-jobs/argo-data-job`,
      createdAt: epochSeconds(run.createdAt),
      updatedAt: epochSeconds(ended ?? run.updatedAt),
      executionRole: request.executionRoleArn,
      state: step.state,
      stateDetails: step.message ?? '',
      releaseLabel: 'emr-7.5.0',
      jobDriver: request.jobDriver,
      ...(request.tags !== undefined && { tags: request.tags }),
      ...(TERMINAL.has(step.state) && ended !== undefined && { endedAt: epochSeconds(ended) }),
    };
  }

  private cancel(run: EmrJobRun): Json {
    if (!TERMINAL.has(run.lifecycle.state)) {
      run.cancelled = true;
      run.lifecycle.redirect([
        { state: 'CANCELLING' },
        { state: 'CANCELLED', message: 'Job run cancelled by user' },
      ]);
    }
    return { applicationId: run.applicationId, jobRunId: run.jobRunId };
  }

  private list(applicationId: string, query: URLSearchParams): Json {
    this.application(applicationId);
    const max = Math.min(Number(query.get('maxResults') ?? 50) || 50, 50);
    const all = this.jobRuns.filter((r) => r.applicationId === applicationId).reverse();
    const start = query.has('nextToken')
      ? Number(Buffer.from(query.get('nextToken')!, 'base64url').toString())
      : 0;
    if (!Number.isInteger(start) || start < 0) throw new AwsError('ValidationException', 'Invalid nextToken');
    const next =
      start + max < all.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
    return {
      jobRuns: all.slice(start, start + max).map((r) => ({
        applicationId: r.applicationId,
        id: r.jobRunId,
        arn: this.started(r).arn,
        state: r.lifecycle.state,
        createdAt: epochSeconds(r.createdAt),
      })),
      ...(next && { nextToken: next }),
    };
  }
}
