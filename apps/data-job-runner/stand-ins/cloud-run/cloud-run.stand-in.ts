import { randomBytes } from 'node:crypto';
import { Lifecycle } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';
import { GoogleApiStandIn, type GoogleApiStandInOptions } from '../google-api-stand-in.js';
import { googleError } from '../google-token.js';

/** How far an execution has got; rendered as its conditions and counts. */
export type CloudRunPhase = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLING' | 'CANCELLED';

export interface CloudRunContainer {
  name: string;
  image: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
}

export interface CloudRunJob {
  name: string;
  containers: CloudRunContainer[];
  taskCount?: number;
  /** Executions of this job follow it (default: pending, running, succeeded). */
  lifecycle?: Array<LifecycleStep<CloudRunPhase>>;
}

export interface CloudRunExecution {
  id: string;
  job: string;
  uid: string;
  /** The run's overrides as received (argument capture). */
  overrides: Record<string, unknown>;
  containers: CloudRunContainer[];
  taskCount: number;
  lifecycle: Lifecycle<CloudRunPhase>;
  createTime: string;
  startTime?: string;
  completionTime?: string;
  cancelled: boolean;
}

export interface CloudRunStandInOptions extends GoogleApiStandInOptions {
  jobs: CloudRunJob[];
}

const TERMINAL = new Set<CloudRunPhase>(['SUCCEEDED', 'FAILED', 'CANCELLED']);
const RUN_FIELDS = new Set(['validateOnly', 'etag', 'overrides']);
const OVERRIDE_FIELDS = new Set(['containerOverrides', 'taskCount', 'timeout']);
const CONTAINER_FIELDS = new Set(['name', 'args', 'env', 'clearArgs']);

const invalid = (message: string) => googleError(400, message, 'INVALID_ARGUMENT');
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Cloud Run Admin API v2 jobs and executions, with Google's token endpoint (the service account's assertion
 * verified): OAuth bearer tokens it issued with the cloud-platform scope, Google error bodies, `jobs.run` with
 * overrides answering a long-running operation whose metadata is the new Execution, `executions.list` newest
 * first in pages, `executions.get` (conditions, counts, times), `executions.cancel` (the execution goes
 * CANCELLING, then CANCELLED; an ended one: 400 FAILED_PRECONDITION).
 */
export class CloudRunStandIn extends GoogleApiStandIn {
  readonly executions: CloudRunExecution[] = [];

  constructor(private readonly options: CloudRunStandInOptions) {
    super('cloudRun', options);
    const jobs = '/v2/projects/:project/locations/:region/jobs';
    this.route(
      'POST',
      `${jobs}/:job`,
      this.authed((req) => this.run(req)),
    )
      .route(
        'GET',
        `${jobs}/:job/executions`,
        this.authed((req) => this.list(req)),
      )
      .route(
        'GET',
        `${jobs}/:job/executions/:execution`,
        this.authed((req) => this.get(req)),
      )
      .route(
        'POST',
        `${jobs}/:job/executions/:execution`,
        this.authed((req) => this.cancel(req)),
      );
  }

  execution(id: string): CloudRunExecution | undefined {
    return this.executions.find((e) => e.id === id);
  }

  protected deniedProject(req: StandInRequest): StandInResponse {
    const { project, region } = req.params;
    return googleError(
      403,
      `Permission 'run.jobs.run' denied on resource 'projects/${project}/locations/${region}/jobs/${req.params.job?.replace(/:run$/, '')}' (or resource may not exist).`,
      'PERMISSION_DENIED',
    );
  }

  protected unknownRegion(req: StandInRequest): StandInResponse {
    return googleError(
      404,
      `Location ${req.params.region} is not found or access is unauthorized.`,
      'NOT_FOUND',
    );
  }

  private job(name: string): CloudRunJob | undefined {
    return this.options.jobs.find((j) => j.name === name);
  }

  private missingJob(name: string): StandInResponse {
    const { project, region } = this.options;
    return googleError(
      404,
      `Resource '${name}' of kind 'JOB' in region '${region}' in project '${project}' does not exist.`,
      'NOT_FOUND',
    );
  }

  private executionName(e: CloudRunExecution): string {
    return `projects/${this.options.project}/locations/${this.options.region}/jobs/${e.job}/executions/${e.id}`;
  }

  private run(req: StandInRequest): StandInResponse {
    if (!req.params.job.endsWith(':run')) return googleError(404, 'Method not found.', 'NOT_FOUND');
    const job = this.job(req.params.job.slice(0, -4));
    if (!job) return this.missingJob(req.params.job.slice(0, -4));
    const body = req.body ?? {};
    if (!isObject(body)) return invalid('Invalid JSON payload received.');
    const unknown = Object.keys(body).find((k) => !RUN_FIELDS.has(k));
    if (unknown !== undefined)
      return invalid(`Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
    const overrides = body.overrides ?? {};
    if (!isObject(overrides)) return invalid("Invalid value at 'overrides': must be an object.");
    const badOverride = Object.keys(overrides).find((k) => !OVERRIDE_FIELDS.has(k));
    if (badOverride !== undefined)
      return invalid(
        `Invalid JSON payload received. Unknown name "${badOverride}" at 'overrides': Cannot find field.`,
      );
    const containers = structuredClone(job.containers);
    const list = overrides.containerOverrides ?? [];
    if (!Array.isArray(list)) return invalid("Invalid value at 'overrides.container_overrides'.");
    for (const o of list) {
      if (!isObject(o)) return invalid("Invalid value at 'overrides.container_overrides'.");
      const field = Object.keys(o).find((k) => !CONTAINER_FIELDS.has(k));
      if (field !== undefined)
        return invalid(
          `Invalid JSON payload received. Unknown name "${field}" at 'overrides.container_overrides[0]': Cannot find field.`,
        );
      if (o.name === undefined && containers.length > 1)
        return invalid('Container override must specify a name when the job has more than one container.');
      const target = o.name === undefined ? containers[0] : containers.find((c) => c.name === o.name);
      if (!target)
        return invalid(`Container override refers to a container '${String(o.name)}' that does not exist.`);
      if (o.clearArgs === true) target.args = [];
      if (Array.isArray(o.args)) target.args = o.args.map(String);
      if (Array.isArray(o.env))
        for (const e of o.env) {
          if (!isObject(e) || typeof e.name !== 'string' || e.name === '')
            return invalid("Invalid value at 'overrides.container_overrides[0].env': name is required.");
          target.env = [
            ...(target.env ?? []).filter((x) => x.name !== e.name),
            { name: e.name, value: String(e.value ?? '') },
          ];
        }
    }
    const taskCount = overrides.taskCount === undefined ? (job.taskCount ?? 1) : Number(overrides.taskCount);
    if (!Number.isInteger(taskCount) || taskCount < 0)
      return invalid("Invalid value at 'overrides.task_count'.");
    const execution: CloudRunExecution = {
      id: `${job.name}-${randomBytes(3).toString('hex').slice(0, 5)}`,
      job: job.name,
      uid: crypto.randomUUID(),
      overrides: structuredClone(overrides),
      containers,
      taskCount,
      lifecycle: new Lifecycle(
        job.lifecycle ?? [{ state: 'PENDING' }, { state: 'RUNNING' }, { state: 'SUCCEEDED' }],
      ),
      createTime: new Date().toISOString(),
      cancelled: false,
    };
    if (body.validateOnly === true) return { body: this.operation(execution) };
    this.executions.unshift(execution);
    return { body: this.operation(execution) };
  }

  private operation(e: CloudRunExecution): Record<string, unknown> {
    return {
      name: `projects/${this.options.project}/locations/${this.options.region}/operations/${e.uid}`,
      metadata: { '@type': 'type.googleapis.com/google.cloud.run.v2.Execution', ...this.view(e) },
      done: false,
    };
  }

  /** The execution as the API shows it at `step` (a get shows the step it read, before the walk moves on). */
  private view(e: CloudRunExecution, step = e.lifecycle.peek()): Record<string, unknown> {
    const phase = step.state;
    const now = new Date().toISOString();
    if (phase !== 'PENDING') e.startTime ??= now;
    if (TERMINAL.has(phase)) e.completionTime ??= now;
    const completed = {
      PENDING: { state: 'CONDITION_PENDING' },
      RUNNING: { state: 'CONDITION_RECONCILING' },
      CANCELLING: { state: 'CONDITION_RECONCILING', executionReason: 'CANCELLING' },
      SUCCEEDED: { state: 'CONDITION_SUCCEEDED', message: 'Execution completed successfully.' },
      FAILED: {
        state: 'CONDITION_FAILED',
        executionReason: 'NON_ZERO_EXIT_CODE',
        message: step.message ?? `Task ${e.id}-task0 failed with exit code 1.`,
      },
      CANCELLED: {
        state: 'CONDITION_FAILED',
        executionReason: 'CANCELLED',
        message: 'The execution was cancelled.',
      },
    }[phase];
    const count = (p: CloudRunPhase) => (phase === p ? e.taskCount : 0);
    return {
      name: this.executionName(e),
      uid: e.uid,
      generation: '1',
      createTime: e.createTime,
      ...(e.startTime && { startTime: e.startTime }),
      ...(e.completionTime && { completionTime: e.completionTime }),
      updateTime: now,
      launchStage: 'GA',
      job: e.job,
      parallelism: e.taskCount,
      taskCount: e.taskCount,
      template: { containers: e.containers, maxRetries: 3, timeout: '600s' },
      reconciling: !TERMINAL.has(phase),
      conditions: [
        { type: 'ResourcesAvailable', state: 'CONDITION_SUCCEEDED', lastTransitionTime: e.createTime },
        ...(e.startTime
          ? [{ type: 'Started', state: 'CONDITION_SUCCEEDED', lastTransitionTime: e.startTime }]
          : []),
        { type: 'Completed', lastTransitionTime: now, ...completed },
      ],
      observedGeneration: '1',
      runningCount: count('RUNNING') + count('CANCELLING'),
      succeededCount: count('SUCCEEDED'),
      failedCount: count('FAILED'),
      cancelledCount: count('CANCELLED'),
      logUri: `https://console.cloud.google.com/logs/viewer?project=${this.options.project}&advancedFilter=resource.type%3D%22cloud_run_job%22%0Alabels.%22run.googleapis.com/execution_name%22%3D%22${e.id}%22`,
      etag: `"${e.uid.slice(0, 8)}"`,
    };
  }

  private found(req: StandInRequest): CloudRunExecution | StandInResponse {
    const id = req.params.execution.replace(/:cancel$/, '');
    const e = this.executions.find((x) => x.id === id && x.job === req.params.job);
    if (e) return e;
    const { project, region } = this.options;
    return googleError(
      404,
      `Resource '${id}' of kind 'EXECUTION' in region '${region}' in project '${project}' does not exist.`,
      'NOT_FOUND',
    );
  }

  private get(req: StandInRequest): StandInResponse {
    const e = this.found(req);
    if (!('id' in e)) return e;
    return { body: this.view(e, e.lifecycle.read()) };
  }

  private list(req: StandInRequest): StandInResponse {
    if (!this.job(req.params.job)) return this.missingJob(req.params.job);
    const size = Math.min(Number(req.query.get('pageSize') ?? 100) || 100, 1000);
    const token = req.query.get('pageToken');
    const offset = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
    if (!Number.isInteger(offset) || offset < 0) return invalid('Invalid page token.');
    const ofJob = this.executions.filter((e) => e.job === req.params.job);
    const page = ofJob.slice(offset, offset + size);
    const next =
      offset + size < ofJob.length ? Buffer.from(String(offset + size)).toString('base64url') : undefined;
    return { body: { executions: page.map((e) => this.view(e)), ...(next && { nextPageToken: next }) } };
  }

  private cancel(req: StandInRequest): StandInResponse {
    if (!req.params.execution.endsWith(':cancel')) return googleError(404, 'Method not found.', 'NOT_FOUND');
    const e = this.found(req);
    if (!('id' in e)) return e;
    const phase = e.lifecycle.peek().state;
    if (TERMINAL.has(phase))
      return googleError(
        400,
        `Execution ${e.id} has already completed and cannot be cancelled.`,
        'FAILED_PRECONDITION',
      );
    e.cancelled = true;
    e.lifecycle.redirect([{ state: 'CANCELLING' }, { state: 'CANCELLED' }]);
    return {
      body: {
        name: `projects/${this.options.project}/locations/${this.options.region}/operations/${crypto.randomUUID()}`,
        metadata: { '@type': 'type.googleapis.com/google.cloud.run.v2.Execution', ...this.view(e) },
        done: false,
      },
    };
  }
}
