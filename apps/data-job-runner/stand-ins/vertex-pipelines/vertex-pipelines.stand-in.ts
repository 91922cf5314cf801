import { randomUUID } from 'node:crypto';
import { Lifecycle } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';
import { GoogleApiStandIn, type GoogleApiStandInOptions } from '../google-api-stand-in.js';
import { googleError } from '../google-token.js';

export type PipelineState =
  | 'PIPELINE_STATE_QUEUED'
  | 'PIPELINE_STATE_PENDING'
  | 'PIPELINE_STATE_RUNNING'
  | 'PIPELINE_STATE_SUCCEEDED'
  | 'PIPELINE_STATE_FAILED'
  | 'PIPELINE_STATE_CANCELLING'
  | 'PIPELINE_STATE_CANCELLED'
  | 'PIPELINE_STATE_PAUSED';

export interface VertexPipelineJob {
  id: string;
  /** The body as received (argument capture). */
  request: Record<string, unknown>;
  lifecycle: Lifecycle<PipelineState>;
  createTime: string;
  startTime?: string;
  endTime?: string;
  cancelled: boolean;
}

export interface VertexPipelinesStandInOptions extends GoogleApiStandInOptions {
  lifecycle?: Array<LifecycleStep<PipelineState>>;
}

const JOB_ID = /^[a-z0-9-]{1,128}$/;
const TERMINAL = new Set(['PIPELINE_STATE_SUCCEEDED', 'PIPELINE_STATE_FAILED', 'PIPELINE_STATE_CANCELLED']);
const JOB_FIELDS = new Set([
  'displayName',
  'pipelineSpec',
  'templateUri',
  'runtimeConfig',
  'labels',
  'serviceAccount',
  'network',
  'reservedIpRanges',
  'encryptionSpec',
  'pscInterfaceConfig',
  'preflightValidations',
]);
const invalid = (message: string) => googleError(400, message, 'INVALID_ARGUMENT');

/**
 * Vertex AI Pipelines v1 (`{region}-aiplatform.googleapis.com`), with Google's token endpoint (the service
 * account's assertion verified): OAuth bearer tokens it issued with the cloud-platform scope, Google error bodies,
 * `pipelineJobs.create` answering the PipelineJob (`pipelineJobId` of `a-z0-9-`, a taken one 409 ALREADY_EXISTS;
 * one of `templateUri` or `pipelineSpec`), `pipelineJobs.get` (PipelineState, `error` as google.rpc.Status),
 * `pipelineJobs.list` in pages, `pipelineJobs.cancel` (CANCELLING, then CANCELLED; an ended job: 400
 * FAILED_PRECONDITION).
 */
export class VertexPipelinesStandIn extends GoogleApiStandIn {
  readonly jobs: VertexPipelineJob[] = [];
  /** Jobs whose body contains `match` (e.g. their template) follow `lifecycle`. */
  readonly scripts: Array<{ match: string; lifecycle: Array<LifecycleStep<PipelineState>> }> = [];

  constructor(private readonly options: VertexPipelinesStandInOptions) {
    super('vertexPipelines', options);
    const base = '/v1/projects/:project/locations/:region/pipelineJobs';
    this.route(
      'POST',
      base,
      this.authed((req) => this.create(req)),
    )
      .route(
        'GET',
        base,
        this.authed((req) => this.list(req)),
      )
      .route(
        'GET',
        `${base}/:job`,
        this.authed((req) => this.get(req)),
      )
      .route(
        'POST',
        `${base}/:job`,
        this.authed((req) => this.cancel(req)),
      );
  }

  job(id: string): VertexPipelineJob | undefined {
    return this.jobs.find((j) => j.id === id);
  }

  protected deniedProject(req: StandInRequest): StandInResponse {
    const { project, region } = req.params;
    return googleError(
      403,
      `Permission 'aiplatform.pipelineJobs.create' denied on resource '//aiplatform.googleapis.com/projects/${project}/locations/${region}' (or it may not exist).`,
      'PERMISSION_DENIED',
    );
  }

  protected unknownRegion(req: StandInRequest): StandInResponse {
    return invalid(
      `Location ${req.params.region} is not supported for this endpoint (${this.google.region}).`,
    );
  }

  private jobName(id: string): string {
    return `projects/${this.options.project}/locations/${this.options.region}/pipelineJobs/${id}`;
  }

  private create(req: StandInRequest): StandInResponse {
    const id = req.query.get('pipelineJobId') ?? randomUUID().replaceAll('-', '').slice(0, 20);
    if (!JOB_ID.test(id))
      return invalid(
        'Invalid pipeline job id: it must be at most 128 characters of lower-case letters, digits and hyphens.',
      );
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return invalid('Invalid JSON payload received.');
    const b = body as Record<string, unknown>;
    const unknown = Object.keys(b).find((k) => !JOB_FIELDS.has(k));
    if (unknown !== undefined)
      return invalid(
        `Invalid JSON payload received. Unknown name "${unknown}" at 'pipeline_job': Cannot find field.`,
      );
    if ((b.templateUri === undefined) === (b.pipelineSpec === undefined))
      return invalid('Exactly one of pipeline_spec or template_uri must be set.');
    if (this.job(id))
      return googleError(409, `PipelineJob ${this.jobName(id)} already exists.`, 'ALREADY_EXISTS');
    const job: VertexPipelineJob = {
      id,
      request: structuredClone(b),
      lifecycle: new Lifecycle(
        this.scripts.find((sc) => JSON.stringify(b).includes(sc.match))?.lifecycle ??
          this.options.lifecycle ?? [
            { state: 'PIPELINE_STATE_PENDING' },
            { state: 'PIPELINE_STATE_RUNNING' },
            { state: 'PIPELINE_STATE_SUCCEEDED' },
          ],
      ),
      createTime: new Date().toISOString(),
      cancelled: false,
    };
    this.jobs.unshift(job);
    return { body: this.view(job) };
  }

  /** The job as the API shows it at `step` (a get shows the step it read, before the walk moves on). */
  private view(job: VertexPipelineJob, step = job.lifecycle.peek()): Record<string, unknown> {
    const now = new Date().toISOString();
    if (!['PIPELINE_STATE_QUEUED', 'PIPELINE_STATE_PENDING'].includes(step.state)) job.startTime ??= now;
    if (TERMINAL.has(step.state)) job.endTime ??= now;
    const error =
      step.state === 'PIPELINE_STATE_FAILED'
        ? { code: 9, message: step.message ?? 'The DAG failed because some tasks failed.' }
        : step.state === 'PIPELINE_STATE_CANCELLED'
          ? { code: 1, message: 'The pipeline job was cancelled.' }
          : undefined;
    return {
      name: this.jobName(job.id),
      displayName: job.request.displayName ?? job.id,
      createTime: job.createTime,
      ...(job.startTime && { startTime: job.startTime }),
      ...(job.endTime && { endTime: job.endTime }),
      updateTime: now,
      ...job.request,
      state: step.state,
      ...(error && { error }),
      serviceAccount:
        job.request.serviceAccount ?? `${this.options.project}-compute@developer.gserviceaccount.com`,
      jobDetail: {
        pipelineContext: {
          name: `projects/${this.options.project}/locations/${this.options.region}/metadataStores/default/contexts/${job.id}`,
        },
      },
    };
  }

  private found(req: StandInRequest): VertexPipelineJob | StandInResponse {
    const id = req.params.job.replace(/:cancel$/, '');
    return (
      this.job(id) ?? googleError(404, `The PipelineJob "${this.jobName(id)}" does not exist.`, 'NOT_FOUND')
    );
  }

  private get(req: StandInRequest): StandInResponse {
    const job = this.found(req);
    if (!('id' in job)) return job;
    return { body: this.view(job, job.lifecycle.read()) };
  }

  private list(req: StandInRequest): StandInResponse {
    const size = Math.min(Number(req.query.get('pageSize') ?? 100) || 100, 100);
    const token = req.query.get('pageToken');
    const offset = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
    if (!Number.isInteger(offset) || offset < 0) return invalid('Invalid page token.');
    const page = this.jobs.slice(offset, offset + size);
    const next =
      offset + size < this.jobs.length ? Buffer.from(String(offset + size)).toString('base64url') : undefined;
    return { body: { pipelineJobs: page.map((j) => this.view(j)), ...(next && { nextPageToken: next }) } };
  }

  private cancel(req: StandInRequest): StandInResponse {
    if (!req.params.job.endsWith(':cancel')) return googleError(404, 'Method not found.', 'NOT_FOUND');
    const job = this.found(req);
    if (!('id' in job)) return job;
    const state = job.lifecycle.peek().state;
    if (TERMINAL.has(state))
      return googleError(
        400,
        `Cannot cancel PipelineJob "${this.jobName(job.id)}" because it is in state ${state}.`,
        'FAILED_PRECONDITION',
      );
    job.cancelled = true;
    job.lifecycle.redirect([{ state: 'PIPELINE_STATE_CANCELLING' }, { state: 'PIPELINE_STATE_CANCELLED' }]);
    return { body: {} };
  }
}
