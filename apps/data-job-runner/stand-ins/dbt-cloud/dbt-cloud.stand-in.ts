import { credential, Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';

export interface DbtJobSpec {
  jobId: number;
  name?: string;
  projectId?: number;
  environmentId?: number;
  /** Walk of the job's runs as status codes (default: 1, 2, 3, 10). */
  lifecycle?: Array<LifecycleStep<number>>;
}

export interface DbtRun {
  id: number;
  jobId: number;
  /** The request body exactly as received (argument capture). */
  request: Record<string, unknown>;
  cause: string;
  lifecycle: Lifecycle<number>;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  cancelled: boolean;
}

export interface DbtCloudStandInOptions {
  accountId: number;
  token: string;
  lifecycle?: Array<LifecycleStep<number>>;
}

const HUMANIZED: Record<number, string> = {
  1: 'Queued',
  2: 'Starting',
  3: 'Running',
  10: 'Success',
  20: 'Error',
  30: 'Cancelled',
};
const RUN_FIELDS = new Set([
  'cause',
  'git_branch',
  'git_sha',
  'azure_pull_request_id',
  'github_pull_request_id',
  'gitlab_merge_request_id',
  'schema_override',
  'dbt_version_override',
  'threads_override',
  'target_name_override',
  'generate_docs_override',
  'timeout_seconds_override',
  'steps_override',
]);

const envelope = (data: unknown, extra?: Record<string, unknown>): StandInResponse => ({
  body: {
    status: { code: 200, is_success: true, user_message: 'Success!', developer_message: '' },
    data,
    ...(extra && { extra }),
  },
});

const failure = (code: number, user_message: string, data: unknown = null): StandInResponse => ({
  status: code,
  body: { status: { code, is_success: false, user_message, developer_message: '' }, data },
});

/** dbt Cloud's timestamp format: `2024-01-01 10:00:00.123456+00:00`. */
const dbtTime = (date = new Date()): string => date.toISOString().replace('T', ' ').replace('Z', '000+00:00');

/**
 * dbt Cloud API v2: `Token` (or `Bearer`) auth, paths under /api/v2/accounts/{id}/ that end with a slash
 * (anything else is Django's HTML 404), the `{status, data}` envelope on success and error, integer run
 * statuses, a required `cause`, the runs list filtered by job with `include_related=["trigger"]`, cancel.
 */
export class DbtCloudStandIn extends ProviderStandIn {
  readonly jobs = new Map<number, DbtJobSpec>();
  readonly runs: DbtRun[] = [];
  private nextRunId = 70_403_103_900;

  constructor(private readonly options: DbtCloudStandInOptions) {
    super('dbt-cloud', () => ({
      status: 404,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: '<!doctype html><html lang="en"><head><title>Not Found</title></head><body><h1>Not Found</h1><p>The requested resource was not found on this server.</p></body></html>',
    }));
    const base = '/api/v2/accounts/:accountId';
    this.route(
      'POST',
      `${base}/jobs/:jobId/run/`,
      this.authed((req) => this.trigger(req)),
    )
      .route(
        'GET',
        `${base}/runs/`,
        this.authed((req) => this.list(req)),
      )
      .route(
        'GET',
        `${base}/runs/:runId/`,
        this.authed((req) => this.get(req)),
      )
      .route(
        'POST',
        `${base}/runs/:runId/cancel/`,
        this.authed((req) => this.cancel(req)),
      );
  }

  addJob(job: DbtJobSpec): this {
    this.jobs.set(job.jobId, job);
    return this;
  }

  runsOf(jobId: number): DbtRun[] {
    return this.runs.filter((r) => r.jobId === jobId);
  }

  /** Runs started by someone else (the UI, a schedule), to fill the lookup window. */
  addForeignRuns(jobId: number, count: number): void {
    for (let i = 0; i < count; i++) this.createRun(jobId, { cause: 'Triggered via schedule' });
  }

  private authed(
    handler: (req: StandInRequest) => StandInResponse,
  ): (req: StandInRequest) => StandInResponse {
    return (req) => {
      const given = credential(req, 'Token') ?? credential(req, 'Bearer');
      if (given !== this.options.token) return failure(401, 'Invalid token.');
      if (req.params.accountId !== String(this.options.accountId))
        return failure(403, 'You do not have permission to perform this action.');
      return handler(req);
    };
  }

  private trigger(req: StandInRequest): StandInResponse {
    const job = this.jobs.get(Number(req.params.jobId));
    if (!job) return failure(404, 'The requested resource was not found.');
    const b = req.body;
    if (typeof b !== 'object' || b === null || Array.isArray(b))
      return failure(400, 'The request was invalid. Please double check the provided data and try again.');
    const body = b as Record<string, unknown>;
    // Keyed by the body's own field names: an unknown `__proto__` field is reported like any other.
    const problems = Object.create(null) as Record<string, string[]>;
    if (typeof body.cause !== 'string' || body.cause === '') problems.cause = ['This field is required.'];
    else if (body.cause.length > 255) problems.cause = ['Ensure this field has no more than 255 characters.'];
    if (
      body.steps_override != null &&
      (!Array.isArray(body.steps_override) || body.steps_override.some((s) => typeof s !== 'string'))
    ) {
      problems.steps_override = ['Expected a list of items.'];
    }
    for (const key of Object.keys(body)) if (!RUN_FIELDS.has(key)) problems[key] = ['Unknown field.'];
    if (Object.keys(problems).length > 0) {
      return failure(
        400,
        'The request was invalid. Please double check the provided data and try again.',
        problems,
      );
    }
    return envelope(this.view(this.createRun(job.jobId, body), false));
  }

  private createRun(jobId: number, body: Record<string, unknown>): DbtRun {
    const job = this.jobs.get(jobId);
    const run: DbtRun = {
      id: this.nextRunId++,
      jobId,
      request: structuredClone(body),
      cause: String(body.cause),
      lifecycle: new Lifecycle(
        job?.lifecycle ?? this.options.lifecycle ?? [{ state: 1 }, { state: 2 }, { state: 3 }, { state: 10 }],
      ),
      createdAt: dbtTime(),
      cancelled: false,
    };
    this.runs.push(run);
    return run;
  }

  private list(req: StandInRequest): StandInResponse {
    const limit = Number(req.query.get('limit') ?? 100);
    const offset = Number(req.query.get('offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return failure(400, 'limit must be between 1 and 100.');
    const jobFilter = req.query.get('job_definition_id');
    const order = req.query.get('order_by') ?? 'id';
    let runs = this.runs.filter((r) => jobFilter === null || String(r.jobId) === jobFilter);
    runs = [...runs].sort((a, b) => (order === '-id' ? b.id - a.id : a.id - b.id));
    const page = runs.slice(offset, offset + limit);
    const related = relatedOf(req);
    return envelope(
      page.map((r) => this.view(r, related.includes('trigger'))),
      {
        filters: { account_id: this.options.accountId, job_definition_id: jobFilter, limit, offset },
        order_by: order,
        pagination: { count: page.length, total_count: runs.length },
      },
    );
  }

  private runOr404(req: StandInRequest): DbtRun | StandInResponse {
    return (
      this.runs.find((r) => String(r.id) === req.params.runId) ??
      failure(404, 'The requested resource was not found.')
    );
  }

  private get(req: StandInRequest): StandInResponse {
    const run = this.runOr404(req);
    if (!('jobId' in run)) return run;
    run.lifecycle.read();
    return envelope(this.view(run, relatedOf(req).includes('trigger')));
  }

  private cancel(req: StandInRequest): StandInResponse {
    const run = this.runOr404(req);
    if (!('jobId' in run)) return run;
    if (!run.lifecycle.finished) {
      run.cancelled = true;
      run.lifecycle.redirect([{ state: 30, message: 'Cancelled by user.' }]);
    }
    return envelope(this.view(run, false));
  }

  private view(run: DbtRun, withTrigger: boolean): Record<string, unknown> {
    const step = run.lifecycle.peek();
    const status = step.state;
    const job = this.jobs.get(run.jobId);
    const complete = status >= 10;
    if (status >= 2) run.startedAt ??= dbtTime();
    if (complete) run.finishedAt ??= dbtTime();
    const projectId = job?.projectId ?? 70_403_103_920_000;
    return {
      id: run.id,
      trigger_id: run.id + 1,
      account_id: this.options.accountId,
      environment_id: job?.environmentId ?? 70_403_103_930_000,
      project_id: projectId,
      job_definition_id: run.jobId,
      job_id: run.jobId,
      status,
      status_humanized: HUMANIZED[status] ?? 'Unknown',
      status_message: status === 20 || status === 30 ? (step.message ?? null) : null,
      dbt_version: 'versionless',
      git_branch: run.request.git_branch ?? 'main',
      git_sha: run.request.git_sha ?? '8c7ab1f',
      created_at: run.createdAt,
      updated_at: dbtTime(),
      started_at: run.startedAt ?? null,
      finished_at: run.finishedAt ?? null,
      in_progress: !complete,
      is_complete: complete,
      is_success: status === 10,
      is_error: status === 20,
      is_cancelled: status === 30,
      href: `${this.url}/deploy/${this.options.accountId}/projects/${projectId}/runs/${run.id}/`,
      ...(withTrigger && {
        trigger: {
          id: run.id + 1,
          cause: run.cause,
          job_definition_id: run.jobId,
          git_branch: run.request.git_branch ?? null,
          git_sha: run.request.git_sha ?? null,
          steps_override: run.request.steps_override ?? null,
          schema_override: run.request.schema_override ?? null,
        },
      }),
    };
  }
}

/** `include_related=["trigger","job"]` (JSON list, as the docs show) or `include_related=trigger,job`. */
function relatedOf(req: StandInRequest): string[] {
  const raw = req.query.get('include_related');
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // comma-separated form
  }
  return raw.split(',').map((s) => s.trim());
}
