import { hasBearer, Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';

/** A run state as `LIFE_CYCLE` or `LIFE_CYCLE/RESULT`, e.g. `RUNNING`, `TERMINATED/FAILED`. */
export type DatabricksRunState = string;

export interface DatabricksJobSpec {
  jobId: number;
  name?: string;
  /** Task definitions as in the job settings (a single notebook task gives get-output a notebook result). */
  tasks?: Array<{
    task_key: string;
    notebook_task?: Record<string, unknown>;
    spark_python_task?: Record<string, unknown>;
  }>;
  lifecycle?: Array<LifecycleStep<DatabricksRunState>>;
  /** What `dbutils.notebook.exit()` returned, for runs/get-output. */
  notebookResult?: string;
  /** The notebook's exception, for runs/get-output of a failed run. */
  notebookError?: string;
}

export interface DatabricksRun {
  runId: number;
  jobId?: number;
  kind: 'run-now' | 'submit';
  /** The request body exactly as received (argument capture). */
  request: Record<string, unknown>;
  idempotencyToken?: string;
  tasks: Array<{ task_key: string; run_id: number; notebook_task?: Record<string, unknown> }>;
  lifecycle: Lifecycle<DatabricksRunState>;
  startTime: number;
  notebookResult?: string;
  notebookError?: string;
  cancelled: boolean;
}

export interface DatabricksStandInOptions {
  token: string;
  /** Walk of runs whose job has none (default: PENDING, RUNNING, TERMINATED/SUCCESS). */
  lifecycle?: Array<LifecycleStep<DatabricksRunState>>;
  workspaceId?: string;
}

const TERMINAL_LIFE_CYCLES = new Set(['TERMINATED', 'SKIPPED', 'INTERNAL_ERROR']);
const PARAM_LIMIT = 10_000;

const error = (status: number, error_code: string, message: string): StandInResponse => ({
  status,
  body: { error_code, message },
});
const MALFORMED = error(
  400,
  'MALFORMED_REQUEST',
  'Invalid JSON given in the body of the request - expected a map',
);

/**
 * Databricks Jobs API 2.2 (and 2.1, same paths), as documented: Bearer auth, `{error_code, message}` errors,
 * idempotency tokens (the same token returns the same run_id), runs/get with `state` and `status`,
 * asynchronous cancel (TERMINATING, then TERMINATED/CANCELED), runs/get-output on single-task runs.
 */
export class DatabricksStandIn extends ProviderStandIn {
  readonly runs: DatabricksRun[] = [];
  readonly jobs = new Map<number, DatabricksJobSpec>();
  private readonly byToken = new Map<string, DatabricksRun>();
  private nextRunId = 455644833;

  constructor(private readonly options: DatabricksStandInOptions) {
    super('databricks', (req) =>
      error(
        404,
        'ENDPOINT_NOT_FOUND',
        `No API found for '${req.method} ${req.path.replace(/^\/api\/2\.[12]/, '')}'`,
      ),
    );
    for (const version of ['2.1', '2.2']) {
      const base = `/api/${version}/jobs`;
      this.route(
        'POST',
        `${base}/run-now`,
        this.authed((req) => this.runNow(req)),
      )
        .route(
          'POST',
          `${base}/runs/submit`,
          this.authed((req) => this.submit(req)),
        )
        .route(
          'GET',
          `${base}/runs/get`,
          this.authed((req) => this.get(req)),
        )
        .route(
          'GET',
          `${base}/runs/get-output`,
          this.authed((req) => this.getOutput(req)),
        )
        .route(
          'POST',
          `${base}/runs/cancel`,
          this.authed((req) => this.cancel(req)),
        );
    }
  }

  addJob(job: DatabricksJobSpec): this {
    this.jobs.set(job.jobId, job);
    return this;
  }

  runsOf(jobId: number): DatabricksRun[] {
    return this.runs.filter((r) => r.jobId === jobId);
  }

  /** 429 REQUEST_LIMIT_EXCEEDED with Retry-After for the next `times` matching requests. */
  rateLimit(times = 1, retryAfterSeconds = 1, match?: (req: StandInRequest) => boolean): void {
    this.server.faults.add(
      {
        kind: 'rate-limit',
        retryAfterSeconds,
        body: {
          error_code: 'REQUEST_LIMIT_EXCEEDED',
          message: 'Too many requests. Please wait a moment and try again.',
        },
      },
      { times, match },
    );
  }

  /** 503 TEMPORARILY_UNAVAILABLE for the next `times` matching requests. */
  unavailable(times = 1, match?: (req: StandInRequest) => boolean): void {
    this.server.faults.add(
      {
        kind: 'status',
        status: 503,
        body: {
          error_code: 'TEMPORARILY_UNAVAILABLE',
          message: 'The service at /api/2.2/jobs is temporarily unavailable.',
        },
      },
      { times, match },
    );
  }

  private authed(
    handler: (req: StandInRequest) => StandInResponse,
  ): (req: StandInRequest) => StandInResponse {
    return (req) => {
      if (!req.headers.authorization) {
        return error(
          401,
          'UNAUTHENTICATED',
          'Credential was not sent or was of an unsupported type for this API.',
        );
      }
      if (!hasBearer(req, this.options.token)) return error(401, 'UNAUTHENTICATED', 'Invalid access token.');
      return handler(req);
    };
  }

  private body(req: StandInRequest): Record<string, unknown> | undefined {
    const ok =
      req.body !== undefined && typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body);
    return ok ? (req.body as Record<string, unknown>) : undefined;
  }

  /** The run an idempotency token already started, or why the token is unacceptable. */
  private checkToken(body: Record<string, unknown>): { error?: StandInResponse; run?: DatabricksRun } {
    const token = body.idempotency_token;
    if (token === undefined) return {};
    if (typeof token !== 'string')
      return {
        error: error(
          400,
          'MALFORMED_REQUEST',
          'Invalid JSON given in the body of the request - expected a string',
        ),
      };
    if (token.length > 64)
      return {
        error: error(400, 'INVALID_PARAMETER_VALUE', 'Idempotency token must be at most 64 characters.'),
      };
    return { run: this.byToken.get(token) };
  }

  private runNow(req: StandInRequest): StandInResponse {
    const b = this.body(req);
    if (!b) return MALFORMED;
    if (typeof b.job_id !== 'number' || !Number.isInteger(b.job_id))
      return error(400, 'INVALID_PARAMETER_VALUE', 'Missing required field: job_id');
    const job = this.jobs.get(b.job_id);
    if (!job) return error(400, 'INVALID_PARAMETER_VALUE', `Job ${b.job_id} does not exist.`);
    for (const field of ['job_parameters', 'notebook_params'] as const) {
      const problem = checkStringMap(b[field], field);
      if (problem) return problem;
    }
    const list = checkStringList(b.python_params, 'python_params');
    if (list) return list;
    const existing = this.checkToken(b);
    if (existing.error) return existing.error;
    if (existing.run) return { body: { run_id: existing.run.runId, number_in_job: existing.run.runId } };
    const run = this.createRun(
      'run-now',
      b,
      job.jobId,
      job.tasks ?? [{ task_key: 'main', notebook_task: { notebook_path: '/Jobs/main' } }],
      job,
    );
    return { body: { run_id: run.runId, number_in_job: run.runId } };
  }

  private submit(req: StandInRequest): StandInResponse {
    const b = this.body(req);
    if (!b) return MALFORMED;
    const tasks = b.tasks;
    if (!Array.isArray(tasks) || tasks.length === 0)
      return error(400, 'INVALID_PARAMETER_VALUE', 'At least one task is required.');
    if (
      tasks.some(
        (t) =>
          typeof t !== 'object' || t === null || typeof (t as { task_key?: unknown }).task_key !== 'string',
      )
    ) {
      return error(400, 'INVALID_PARAMETER_VALUE', 'Task key must be specified for every task.');
    }
    const existing = this.checkToken(b);
    if (existing.error) return existing.error;
    if (existing.run) return { body: { run_id: existing.run.runId } };
    const run = this.createRun(
      'submit',
      b,
      undefined,
      tasks as DatabricksJobSpec['tasks'] & object[],
      undefined,
    );
    return { body: { run_id: run.runId } };
  }

  private createRun(
    kind: DatabricksRun['kind'],
    request: Record<string, unknown>,
    jobId: number | undefined,
    tasks: NonNullable<DatabricksJobSpec['tasks']>,
    job: DatabricksJobSpec | undefined,
  ): DatabricksRun {
    const runId = this.nextRunId++;
    const steps = job?.lifecycle ??
      this.options.lifecycle ?? [
        { state: 'PENDING' },
        { state: 'RUNNING' },
        { state: 'TERMINATED/SUCCESS', message: '' },
      ];
    const run: DatabricksRun = {
      runId,
      jobId,
      kind,
      request: structuredClone(request),
      idempotencyToken: typeof request.idempotency_token === 'string' ? request.idempotency_token : undefined,
      tasks: tasks.map((t, i) => ({
        task_key: t.task_key,
        run_id: runId + 1_000_000 + i,
        notebook_task: t.notebook_task,
      })),
      lifecycle: new Lifecycle(steps),
      startTime: Date.now(),
      notebookResult: job?.notebookResult,
      notebookError: job?.notebookError,
      cancelled: false,
    };
    this.runs.push(run);
    if (run.idempotencyToken) this.byToken.set(run.idempotencyToken, run);
    return run;
  }

  private findRun(req: StandInRequest): DatabricksRun | StandInResponse {
    const id = Number(req.query.get('run_id'));
    if (!req.query.get('run_id') || !Number.isInteger(id))
      return error(400, 'INVALID_PARAMETER_VALUE', 'Missing required field: run_id');
    const run = this.runs.find((r) => r.runId === id);
    if (!run) return error(404, 'RESOURCE_DOES_NOT_EXIST', `Run ${id} does not exist.`);
    return run;
  }

  private get(req: StandInRequest): StandInResponse {
    const run = this.findRun(req);
    if (!('runId' in run)) return run;
    return { body: this.view(run, run.lifecycle.read()) };
  }

  private view(run: DatabricksRun, step: LifecycleStep<DatabricksRunState>): Record<string, unknown> {
    const [lifeCycle, result] = step.state.split('/');
    const terminal = TERMINAL_LIFE_CYCLES.has(lifeCycle);
    const endTime = terminal ? (run.lifecycle.endedAt ?? Date.now()) : 0;
    const state: Record<string, unknown> = {
      life_cycle_state: lifeCycle,
      state_message: step.message ?? '',
      user_cancelled_or_timedout: run.cancelled,
      ...(result && { result_state: result }),
      ...(lifeCycle === 'QUEUED' && {
        queue_reason: step.message ?? 'Queued due to reaching maximum concurrent runs of 1.',
      }),
    };
    const status: Record<string, unknown> = {
      state: terminal ? 'TERMINATED' : lifeCycle === 'WAITING_FOR_RETRY' ? 'WAITING' : lifeCycle,
      ...(terminal && {
        termination_details: terminationDetails(lifeCycle, result, run.cancelled, step.message),
      }),
    };
    const overriding = Object.fromEntries(
      ['job_parameters', 'notebook_params', 'python_params']
        .filter((k) => run.request[k] !== undefined)
        .map((k) => [k, run.request[k]]),
    );
    return {
      job_id: run.jobId,
      run_id: run.runId,
      number_in_job: run.runId,
      creator_user_name: 'argo-sp@example.com',
      run_name:
        (run.request.run_name as string | undefined) ??
        (run.jobId ? this.jobs.get(run.jobId)?.name : undefined) ??
        'Untitled',
      run_type: run.kind === 'submit' ? 'SUBMIT_RUN' : 'JOB_RUN',
      state,
      status,
      start_time: run.startTime,
      end_time: endTime,
      run_page_url: `${this.url}/?o=${this.options.workspaceId ?? '1234567890123456'}#job/${run.jobId ?? 0}/run/${run.runId}`,
      tasks: run.tasks.map((t) => ({ ...t, state, start_time: run.startTime, end_time: endTime })),
      ...(Object.keys(overriding).length > 0 && { overriding_parameters: overriding }),
    };
  }

  private getOutput(req: StandInRequest): StandInResponse {
    const id = Number(req.query.get('run_id'));
    const parent = this.runs.find((r) => r.runId === id);
    if (parent) {
      if (parent.tasks.length > 1) {
        return error(
          400,
          'INVALID_PARAMETER_VALUE',
          'Retrieving the output of runs with multiple tasks is not supported. Please retrieve the output of each individual task run instead.',
        );
      }
    }
    const owner = parent ?? this.runs.find((r) => r.tasks.some((t) => t.run_id === id));
    if (!owner) return error(400, 'INVALID_PARAMETER_VALUE', `Run ${id} does not exist.`);
    const task = owner.tasks.find((t) => t.run_id === id) ?? owner.tasks[0];
    const step = owner.lifecycle.peek();
    const done = step.state.startsWith('TERMINATED');
    const failed = done && !/SUCCESS|CANCELED/.test(step.state);
    return {
      body: {
        metadata: { ...this.view(owner, step), run_id: task.run_id, task_key: task.task_key },
        ...(done &&
          !failed &&
          task.notebook_task && { notebook_output: { result: owner.notebookResult, truncated: false } }),
        ...(failed &&
          owner.notebookError && {
            error: owner.notebookError,
            error_trace: `---------\n${owner.notebookError}\n  at cell 3`,
          }),
      },
    };
  }

  private cancel(req: StandInRequest): StandInResponse {
    const id = this.body(req)?.run_id;
    const run = this.runs.find((r) => r.runId === id);
    if (!run) return error(400, 'INVALID_PARAMETER_VALUE', `Run ${String(id)} does not exist.`);
    if (!run.lifecycle.finished && !run.cancelled) {
      run.cancelled = true;
      run.lifecycle.redirect([
        { state: 'TERMINATING' },
        { state: 'TERMINATED/CANCELED', message: 'Run cancelled.' },
      ]);
    }
    return { body: {} };
  }
}

function terminationDetails(
  lifeCycle: string,
  result: string | undefined,
  cancelled: boolean,
  message = '',
): Record<string, string> {
  if (result === 'SUCCESS') return { code: 'SUCCESS', type: 'SUCCESS', message };
  if (result === 'SUCCESS_WITH_FAILURES') return { code: 'SUCCESS_WITH_FAILURES', type: 'SUCCESS', message };
  if (result === 'CANCELED')
    return { code: cancelled ? 'USER_CANCELED' : 'CANCELED', type: 'SUCCESS', message };
  if (lifeCycle === 'INTERNAL_ERROR') return { code: 'INTERNAL_ERROR', type: 'INTERNAL_ERROR', message };
  if (lifeCycle === 'SKIPPED') return { code: 'SKIPPED', type: 'CLIENT_ERROR', message };
  return { code: 'RUN_EXECUTION_ERROR', type: 'CLIENT_ERROR', message };
}

function checkStringMap(value: unknown, field: string): StandInResponse | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    Object.values(value).some((v) => typeof v !== 'string')
  ) {
    return error(
      400,
      'MALFORMED_REQUEST',
      `Invalid JSON given in the body of the request - expected a map of strings for '${field}'`,
    );
  }
  if (JSON.stringify(value).length > PARAM_LIMIT)
    return error(400, 'INVALID_PARAMETER_VALUE', `${field} is too long (at most ${PARAM_LIMIT} bytes)`);
  return undefined;
}

function checkStringList(value: unknown, field: string): StandInResponse | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    return error(
      400,
      'MALFORMED_REQUEST',
      `Invalid JSON given in the body of the request - expected a list of strings for '${field}'`,
    );
  }
  if (JSON.stringify(value).length > PARAM_LIMIT)
    return error(400, 'INVALID_PARAMETER_VALUE', `${field} is too long (at most ${PARAM_LIMIT} bytes)`);
  return undefined;
}
