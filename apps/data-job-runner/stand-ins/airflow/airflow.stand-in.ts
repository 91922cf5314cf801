import { randomBytes } from 'node:crypto';
import { credential, hasBasic, Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';

export type AirflowApi = 'v1' | 'v2';

export interface AirflowDagSpec {
  dagId: string;
  paused?: boolean;
  /** Walk of the DAG's runs (default: queued, running, success). */
  lifecycle?: Array<LifecycleStep<string>>;
  /** Task ids reported as failed by taskInstances once a run failed. */
  failedTasks?: string[];
}

export interface AirflowDagRun {
  dagId: string;
  dagRunId: string;
  /** The request body exactly as received (argument capture). */
  request: Record<string, unknown>;
  lifecycle: Lifecycle<string>;
  logicalDate: string | null;
  queuedAt: string;
  startDate?: string;
  endDate?: string;
  /** Bodies of PATCH calls (the plugin cancels with `{"state":"failed"}`). */
  patches: Array<Record<string, unknown>>;
}

export interface AirflowStandInOptions {
  api: AirflowApi;
  /** Basic auth (v1) or the credentials POST /auth/token accepts (v2). */
  username?: string;
  password?: string;
  /** A static bearer token accepted as is (Astronomer/Composer style on v1, a long-lived JWT on v2). */
  token?: string;
  /** Lifetime of the JWTs /auth/token issues (v2; default 1h). */
  jwtTtlMs?: number;
  lifecycle?: Array<LifecycleStep<string>>;
}

const V1_FIELDS = new Set([
  'dag_run_id',
  'logical_date',
  'execution_date',
  'conf',
  'note',
  'data_interval_start',
  'data_interval_end',
]);
const V2_FIELDS = new Set([
  'dag_run_id',
  'logical_date',
  'conf',
  'note',
  'data_interval_start',
  'data_interval_end',
  'run_after',
]);
const TERMINAL = new Set(['success', 'failed']);

/**
 * The Airflow stable REST API: v1 (Airflow 2: Basic or bearer auth, problem+json errors, marshmallow's
 * "Unknown field") or v2 (Airflow 3: JWTs from POST /auth/token → 201 that expire, `{detail}` errors, strict
 * bodies with a required `logical_date`, the unique-constraint 409). Client-chosen dag_run_id with 409 on a
 * duplicate, paused DAGs whose runs stay queued, PATCH to failed.
 */
export class AirflowStandIn extends ProviderStandIn {
  readonly dags = new Map<string, AirflowDagSpec>();
  readonly runs: AirflowDagRun[] = [];
  /** JWTs issued by /auth/token with their expiry (v2). */
  readonly jwts = new Map<string, number>();
  private readonly base: string;

  constructor(private readonly options: AirflowStandInOptions) {
    super(`airflow-${options.api}`);
    this.base = `/api/${options.api}`;
    const b = this.base;
    this.route('GET', `${b}/version`, () => ({
      body: { version: options.api === 'v1' ? '2.10.5' : '3.0.2', git_version: null },
    }));
    if (options.api === 'v2') this.route('POST', '/auth/token', (req) => this.issueToken(req));
    this.route(
      'GET',
      `${b}/dags/:dagId`,
      this.authed((req) => this.getDag(req)),
    )
      .route(
        'POST',
        `${b}/dags/:dagId/dagRuns`,
        this.authed((req) => this.trigger(req)),
      )
      .route(
        'GET',
        `${b}/dags/:dagId/dagRuns/:runId`,
        this.authed((req) => this.getRun(req)),
      )
      .route(
        'PATCH',
        `${b}/dags/:dagId/dagRuns/:runId`,
        this.authed((req) => this.patchRun(req)),
      )
      .route(
        'GET',
        `${b}/dags/:dagId/dagRuns/:runId/taskInstances`,
        this.authed((req) => this.taskInstances(req)),
      );
  }

  addDag(dag: AirflowDagSpec): this {
    this.dags.set(dag.dagId, dag);
    return this;
  }

  runsOf(dagId: string): AirflowDagRun[] {
    return this.runs.filter((r) => r.dagId === dagId);
  }

  /** Makes every issued JWT expire now (v2). */
  expireTokens(): void {
    for (const token of this.jwts.keys()) this.jwts.set(token, 0);
  }

  // --- errors in the two dialects -------------------------------------------------------------------

  private problem(status: number, title: string, detail: string, type: string): StandInResponse {
    if (this.options.api === 'v2') return { status, body: { detail } };
    return {
      status,
      headers: { 'Content-Type': 'application/problem+json' },
      body: {
        detail,
        status,
        title,
        type: `https://airflow.apache.org/docs/apache-airflow/2.10.5/stable-rest-api-ref.html#section/Errors/${type}`,
      },
    };
  }

  protected override noRoute(req: StandInRequest): StandInResponse {
    if (this.options.api === 'v2') return { status: 404, body: { detail: 'Not Found' } };
    return {
      status: 404,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang=en><title>404 Not Found</title><h1>Not Found</h1><p>The requested URL ${req.path} was not found on the server.</p></html>`,
    };
  }

  // --- auth -------------------------------------------------------------------------------------------

  private authed(
    handler: (req: StandInRequest) => StandInResponse,
  ): (req: StandInRequest) => StandInResponse {
    return (req) => {
      const { username, password, token } = this.options;
      const bearer = credential(req, 'Bearer');
      if (token !== undefined && bearer === token) return handler(req);
      if (this.options.api === 'v1') {
        if (username !== undefined && password !== undefined && hasBasic(req, username, password))
          return handler(req);
        return this.problem(401, 'Unauthorized', 'Unauthorized', 'Unauthenticated');
      }
      if (bearer === undefined) return { status: 401, body: { detail: 'Not authenticated' } };
      const expiry = this.jwts.get(bearer);
      if (expiry === undefined || expiry <= Date.now())
        return { status: 401, body: { detail: 'Invalid JWT token' } };
      return handler(req);
    };
  }

  private issueToken(req: StandInRequest): StandInResponse {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body.username !== 'string' || typeof body.password !== 'string') {
      return {
        status: 422,
        body: {
          detail: [{ type: 'missing', loc: ['body', 'username'], msg: 'Field required', input: body }],
        },
      };
    }
    if (body.username !== this.options.username || body.password !== this.options.password) {
      return { status: 401, body: { detail: 'Invalid credentials' } };
    }
    const jwt = `eyJhbGciOiJIUzUxMiJ9.${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`;
    this.jwts.set(jwt, Date.now() + (this.options.jwtTtlMs ?? 3600_000));
    return { status: 201, body: { access_token: jwt } };
  }

  // --- DAGs and DAG runs --------------------------------------------------------------------------------

  private dagOr404(req: StandInRequest): AirflowDagSpec | StandInResponse {
    const dag = this.dags.get(req.params.dagId);
    return (
      dag ??
      this.problem(404, 'DAG not found', `DAG with dag_id: '${req.params.dagId}' not found`, 'NotFound')
    );
  }

  private getDag(req: StandInRequest): StandInResponse {
    const dag = this.dagOr404(req);
    if (!('dagId' in dag)) return dag;
    return {
      body: {
        dag_id: dag.dagId,
        is_paused: dag.paused ?? false,
        is_active: true,
        fileloc: `/opt/airflow/dags/${dag.dagId}.py`,
        tags: [],
      },
    };
  }

  private trigger(req: StandInRequest): StandInResponse {
    const dag = this.dagOr404(req);
    if (!('dagId' in dag)) return dag;
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return this.problem(400, 'Bad Request', 'Request body must be an object', 'BadRequest');
    const b = body as Record<string, unknown>;
    const invalid = this.options.api === 'v1' ? this.invalidV1(b) : this.invalidV2(b);
    if (invalid) return invalid;
    const logicalDate = this.logicalDateOf(b);
    const dagRunId =
      typeof b.dag_run_id === 'string' ? b.dag_run_id : `manual__${logicalDate ?? new Date().toISOString()}`;
    if (this.runs.some((r) => r.dagId === dag.dagId && r.dagRunId === dagRunId))
      return this.conflict(dag.dagId, `DAGRun ID: '${dagRunId}'`);
    if (logicalDate && this.runs.some((r) => r.dagId === dag.dagId && r.logicalDate === logicalDate)) {
      return this.conflict(dag.dagId, `DAGRun logical date: '${logicalDate}'`);
    }
    const run: AirflowDagRun = {
      dagId: dag.dagId,
      dagRunId,
      request: structuredClone(b),
      lifecycle: new Lifecycle(
        dag.lifecycle ??
          this.options.lifecycle ?? [{ state: 'queued' }, { state: 'running' }, { state: 'success' }],
      ),
      logicalDate,
      queuedAt: new Date().toISOString(),
      patches: [],
    };
    this.runs.push(run);
    return { body: this.view(run, run.lifecycle.state) };
  }

  private invalidV1(b: Record<string, unknown>): StandInResponse | undefined {
    const unknown = Object.keys(b).filter((k) => !V1_FIELDS.has(k));
    if (unknown.length > 0) {
      return this.problem(
        400,
        'Bad Request',
        `{${unknown.map((k) => `'${k}': ['Unknown field.']`).join(', ')}}`,
        'BadRequest',
      );
    }
    if (b.conf !== undefined && (typeof b.conf !== 'object' || b.conf === null || Array.isArray(b.conf))) {
      return this.problem(400, 'Bad Request', "{'conf': ['Not a valid mapping type.']}", 'BadRequest');
    }
    return undefined;
  }

  private invalidV2(b: Record<string, unknown>): StandInResponse | undefined {
    const errors: Array<Record<string, unknown>> = [];
    for (const k of Object.keys(b)) {
      if (!V2_FIELDS.has(k))
        errors.push({
          type: 'extra_forbidden',
          loc: ['body', k],
          msg: 'Extra inputs are not permitted',
          input: b[k],
        });
    }
    if (!('logical_date' in b))
      errors.push({ type: 'missing', loc: ['body', 'logical_date'], msg: 'Field required', input: b });
    else if (
      b.logical_date !== null &&
      (typeof b.logical_date !== 'string' || !/(Z|[+-]\d\d:?\d\d)$/.test(b.logical_date))
    ) {
      errors.push({
        type: 'timezone_aware',
        loc: ['body', 'logical_date'],
        msg: 'Input should have timezone info',
        input: b.logical_date,
      });
    }
    if (b.conf !== undefined && b.conf !== null && (typeof b.conf !== 'object' || Array.isArray(b.conf))) {
      errors.push({
        type: 'dict_type',
        loc: ['body', 'conf'],
        msg: 'Input should be a valid dictionary',
        input: b.conf,
      });
    }
    return errors.length > 0 ? { status: 422, body: { detail: errors } } : undefined;
  }

  private logicalDateOf(b: Record<string, unknown>): string | null {
    const value = b.logical_date ?? b.execution_date;
    if (typeof value === 'string') return new Date(value).toISOString();
    return this.options.api === 'v1' ? new Date().toISOString() : null;
  }

  private conflict(dagId: string, what: string): StandInResponse {
    const text = `DAGRun with DAG ID: '${dagId}' and ${what} already exists`;
    if (this.options.api === 'v1') return this.problem(409, 'Conflict', text, 'AlreadyExists');
    return {
      status: 409,
      body: {
        detail: {
          reason: 'Unique constraint violation',
          statement: 'hidden',
          orig_error: 'hidden',
          message:
            'Serious error when handling your request. Check logs for more details - you will find it in api server when you look for ID 5d1e0c2a',
        },
      },
    };
  }

  private runOr404(req: StandInRequest): AirflowDagRun | StandInResponse {
    const dag = this.dagOr404(req);
    if (!('dagId' in dag)) return dag;
    const run = this.runs.find((r) => r.dagId === dag.dagId && r.dagRunId === req.params.runId);
    return (
      run ??
      this.problem(
        404,
        'DAGRun not found',
        `DAGRun with DAG ID: '${dag.dagId}' and DagRun ID: '${req.params.runId}' not found`,
        'NotFound',
      )
    );
  }

  private getRun(req: StandInRequest): StandInResponse {
    const run = this.runOr404(req);
    if (!('dagRunId' in run)) return run;
    // A paused DAG's runs are not scheduled: they stay where they are.
    const step = this.dags.get(run.dagId)?.paused ? run.lifecycle.peek() : run.lifecycle.read();
    return { body: this.view(run, step.state) };
  }

  private patchRun(req: StandInRequest): StandInResponse {
    const run = this.runOr404(req);
    if (!('dagRunId' in run)) return run;
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (!['failed', 'success', 'queued'].includes(String(b.state))) {
      return this.options.api === 'v1'
        ? this.problem(
            400,
            'Bad Request',
            "{'state': ['Must be one of: success, failed, queued.']}",
            'BadRequest',
          )
        : {
            status: 422,
            body: {
              detail: [
                {
                  type: 'enum',
                  loc: ['body', 'state'],
                  msg: "Input should be 'queued', 'success' or 'failed'",
                  input: b.state,
                },
              ],
            },
          };
    }
    run.patches.push(structuredClone(b));
    run.lifecycle.redirect([{ state: String(b.state) }]);
    return { body: this.view(run, String(b.state)) };
  }

  private taskInstances(req: StandInRequest): StandInResponse {
    const run = this.runOr404(req);
    if (!('dagRunId' in run)) return run;
    const failed = run.lifecycle.state === 'failed' ? (this.dags.get(run.dagId)?.failedTasks ?? []) : [];
    const instances = ['extract', 'load', ...failed].map((task_id) => ({
      task_id,
      dag_id: run.dagId,
      dag_run_id: run.dagRunId,
      state: failed.includes(task_id) ? 'failed' : 'success',
    }));
    return { body: { task_instances: instances, total_entries: instances.length } };
  }

  private view(run: AirflowDagRun, state: string): Record<string, unknown> {
    if (state !== 'queued') run.startDate ??= new Date().toISOString();
    if (TERMINAL.has(state)) run.endDate ??= new Date().toISOString();
    else run.endDate = undefined;
    const common = {
      dag_run_id: run.dagRunId,
      dag_id: run.dagId,
      logical_date: run.logicalDate,
      start_date: run.startDate ?? null,
      end_date: run.endDate ?? null,
      data_interval_start: run.logicalDate,
      data_interval_end: run.logicalDate,
      last_scheduling_decision: null,
      run_type: 'manual',
      state,
      conf: run.request.conf ?? {},
      note: run.request.note ?? null,
    };
    if (this.options.api === 'v1')
      return { ...common, execution_date: run.logicalDate, external_trigger: true };
    return {
      ...common,
      queued_at: run.queuedAt,
      run_after: run.queuedAt,
      triggered_by: 'rest_api',
      dag_versions: [],
    };
  }
}
