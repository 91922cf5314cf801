import { randomUUID } from 'node:crypto';
import { Lifecycle, type LifecycleStep } from '@app/local-agent';
import { AwsError, required, type AwsStandInOptions, type Json } from '../aws/aws-json-stand-in.js';
import { AwsRestStandIn } from '../aws/aws-rest-stand-in.js';

export type BatchJobStatus =
  'SUBMITTED' | 'PENDING' | 'RUNNABLE' | 'STARTING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';

export interface BatchQueueSpec {
  name: string;
  /** The walk of each job (default SUBMITTED, RUNNABLE, RUNNING, SUCCEEDED); a step's message is its statusReason. */
  lifecycle?: Array<LifecycleStep<BatchJobStatus>>;
  /** The container's exit code and reason when a job FAILED on its own. */
  failure?: { exitCode: number; reason: string };
}

export interface BatchJob {
  jobId: string;
  jobName: string;
  jobQueue: string;
  createdAt: number;
  lifecycle: Lifecycle<BatchJobStatus>;
  terminated?: string;
  /** The request body exactly as received. */
  request: Json;
}

const TERMINAL = new Set<BatchJobStatus>(['SUCCEEDED', 'FAILED']);
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * AWS Batch (API reference, REST-JSON under /v1, signing name `batch`): SubmitJob (no idempotency token: every
 * call is a new job), DescribeJobs (at most 100 ids), TerminateJob (the job ends FAILED with the given reason),
 * ListJobs by queue or with a JOB_NAME filter (a trailing `*` matches a prefix; with a filter every status is
 * listed), in `nextToken` pages.
 */
export class BatchStandIn extends AwsRestStandIn {
  readonly queues = new Map<string, BatchQueueSpec>();
  readonly jobs: BatchJob[] = [];

  constructor(options: AwsStandInOptions) {
    super('batch', 'batch', options);
    this.operation('SubmitJob', 'POST', '/v1/submitjob', (_req, input) => this.submit(input))
      .operation('DescribeJobs', 'POST', '/v1/describejobs', (_req, input) => this.describe(input))
      .operation('TerminateJob', 'POST', '/v1/terminatejob', (_req, input) => this.terminate(input))
      .operation('ListJobs', 'POST', '/v1/listjobs', (_req, input) => this.list(input));
  }

  /** Adds a job queue; returns its ARN. */
  addQueue(spec: BatchQueueSpec): string {
    const arn = this.arn('batch', `job-queue/${spec.name}`);
    this.queues.set(arn, spec);
    return arn;
  }

  private queue(nameOrArn: string): [string, BatchQueueSpec] {
    const arn = nameOrArn.startsWith('arn:') ? nameOrArn : this.arn('batch', `job-queue/${nameOrArn}`);
    const spec = this.queues.get(arn);
    if (!spec) throw new AwsError('ClientException', `Job queue ${nameOrArn} does not exist.`);
    return [arn, spec];
  }

  private submit(input: Json): Json {
    const jobName = String(required(input, 'jobName'));
    if (!NAME.test(jobName)) throw new AwsError('ClientException', `Job name ${jobName} is invalid.`);
    const [jobQueue, spec] = this.queue(String(required(input, 'jobQueue')));
    required(input, 'jobDefinition');
    const job: BatchJob = {
      jobId: randomUUID(),
      jobName,
      jobQueue,
      createdAt: Date.now(),
      lifecycle: new Lifecycle<BatchJobStatus>(
        spec.lifecycle ?? [
          { state: 'SUBMITTED' },
          { state: 'RUNNABLE' },
          { state: 'RUNNING' },
          { state: 'SUCCEEDED' },
        ],
      ),
      request: input,
    };
    this.jobs.push(job);
    return { jobArn: this.jobArn(job), jobName, jobId: job.jobId };
  }

  private jobArn(job: BatchJob): string {
    return this.arn('batch', `job/${job.jobId}`);
  }

  private describe(input: Json): Json {
    const ids = required(input, 'jobs');
    if (!Array.isArray(ids) || ids.length > 100)
      throw new AwsError('ClientException', 'jobs must be a list of at most 100 job ids');
    return {
      jobs: this.jobs.filter((j) => ids.includes(j.jobId)).map((j) => this.detail(j, j.lifecycle.read())),
    };
  }

  private detail(job: BatchJob, step: LifecycleStep<BatchJobStatus>): Json {
    const spec = this.queues.get(job.jobQueue)!;
    const failed = step.state === 'FAILED' && job.terminated === undefined ? spec.failure : undefined;
    const request = job.request;
    const ended = TERMINAL.has(step.state) ? (job.lifecycle.endedAt ?? Date.now()) : undefined;
    return {
      jobArn: this.jobArn(job),
      jobName: job.jobName,
      jobId: job.jobId,
      jobQueue: job.jobQueue,
      status: step.state,
      ...(step.message !== undefined && { statusReason: step.message }),
      ...(job.terminated !== undefined && { statusReason: job.terminated }),
      createdAt: job.createdAt,
      ...(['STARTING', 'RUNNING', 'SUCCEEDED', 'FAILED'].includes(step.state) && {
        startedAt: job.createdAt + 1,
      }),
      ...(ended !== undefined && { stoppedAt: ended }),
      jobDefinition: request.jobDefinition,
      parameters: request.parameters ?? {},
      container: {
        ...(isJson(request.containerOverrides) ? request.containerOverrides : {}),
        logStreamName: `${String(request.jobDefinition).split(':')[0]}/default/${job.jobId.replace(/-/g, '')}`,
        ...(failed && { exitCode: failed.exitCode, reason: failed.reason }),
        ...(step.state === 'SUCCEEDED' && { exitCode: 0 }),
      },
      ...(isJson(request.arrayProperties) && { arrayProperties: { size: request.arrayProperties.size } }),
      tags: request.tags ?? {},
      propagateTags: request.propagateTags === true,
    };
  }

  private terminate(input: Json): Json {
    const jobId = String(required(input, 'jobId'));
    const reason = String(required(input, 'reason'));
    const job = this.jobs.find((j) => j.jobId === jobId);
    if (!job) throw new AwsError('ClientException', `Job ${jobId} does not exist.`);
    if (!TERMINAL.has(job.lifecycle.state)) {
      job.terminated = reason;
      job.lifecycle.redirect([{ state: 'FAILED' }]);
    }
    return {};
  }

  private list(input: Json): Json {
    const filters = Array.isArray(input.filters) ? (input.filters as Json[]) : [];
    const byName = filters.find((f) => f.name === 'JOB_NAME');
    let jobs = this.jobs;
    if (input.jobQueue !== undefined) {
      const [arn] = this.queue(String(input.jobQueue));
      jobs = jobs.filter((j) => j.jobQueue === arn);
    } else if (input.arrayJobId === undefined && input.multiNodeJobId === undefined)
      throw new AwsError('ClientException', 'A job queue, array job id or multi-node job id is required.');
    if (byName) {
      const pattern = String((byName.values as string[] | undefined)?.[0] ?? '');
      jobs = jobs.filter((j) =>
        pattern.endsWith('*') ? j.jobName.startsWith(pattern.slice(0, -1)) : j.jobName === pattern,
      );
    } else {
      const status = typeof input.jobStatus === 'string' ? input.jobStatus : 'RUNNING';
      jobs = jobs.filter((j) => j.lifecycle.state === status);
    }
    const max =
      typeof input.maxResults === 'number' && input.maxResults > 0 ? Math.min(input.maxResults, 1000) : 100;
    const start =
      typeof input.nextToken === 'string' ? Number(Buffer.from(input.nextToken, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0) throw new AwsError('ClientException', 'Invalid nextToken');
    const ordered = [...jobs].reverse();
    const next =
      start + max < ordered.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
    return {
      jobSummaryList: ordered.slice(start, start + max).map((j) => ({
        jobArn: this.jobArn(j),
        jobId: j.jobId,
        jobName: j.jobName,
        createdAt: j.createdAt,
        status: j.lifecycle.state,
        jobDefinition: j.request.jobDefinition,
      })),
      ...(next && { nextToken: next }),
    };
  }

  /** Jobs submitted by someone else with this name (a schedule, the console), to fill ListJobs' pages. */
  addForeignJobs(queue: string, jobName: string, count: number): void {
    for (let i = 0; i < count; i++) this.submit({ jobName, jobQueue: queue, jobDefinition: 'other:1' });
  }
}

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
