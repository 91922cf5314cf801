import { credential, Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse, Timing } from '@app/local-agent';

export type GitHubConclusion =
  | 'success'
  | 'failure'
  | 'neutral'
  | 'cancelled'
  | 'skipped'
  | 'timed_out'
  | 'action_required'
  | 'stale'
  | 'startup_failure';

export interface GitHubWorkflowSetup {
  id: number;
  /** File name under .github/workflows. */
  file: string;
  name?: string;
  /** Declared workflow_dispatch inputs. */
  inputs?: Record<string, { required?: boolean }>;
  /** The workflow's `run-name`, with `${{ inputs.x }}` expressions (e.g. `${{ inputs.argo_key }}`). */
  runName?: string;
  /** Branches and tags the workflow exists on (default main). */
  refs?: string[];
  /** How long a run is queued, waits for an environment approval (optional) and runs. */
  queued?: Timing;
  waiting?: Timing;
  inProgress?: Timing;
  /** Conclusion of each run in turn (the last one repeats; default success). */
  conclusions?: GitHubConclusion[];
  /** A new run is missing from the list endpoint for this many list calls / milliseconds. */
  appearAfter?: Timing;
}

export interface GitHubStandInOptions {
  token: string;
  /**
   * dotcom: `return_run_details` gives 200 with the run id; no-details: 204 even with the flag (gh CLI saw
   * this on github.com); ghes: served under /api/v3 and the flag is rejected with 422 (GHES ≤ 3.20).
   */
  mode?: 'dotcom' | 'no-details' | 'ghes';
  /** Primary rate limit per window (default 5000). */
  rateLimit?: number;
}

type RunStatus = 'queued' | 'waiting' | 'in_progress' | 'completed';

interface Run {
  id: number;
  repo: string;
  workflow: GitHubWorkflowSetup;
  ref: string;
  inputs: Record<string, unknown>;
  displayTitle: string;
  runNumber: number;
  createdAt: number;
  startedAt?: number;
  completedAt?: number;
  life: Lifecycle<RunStatus>;
  conclusion: GitHubConclusion;
  listReadsLeft: number;
}

const DOCS = 'https://docs.github.com/rest/actions';
const API_VERSIONS = ['2022-11-28', '2026-03-10'];
const MAX_INPUTS = 25;

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * GitHub Actions REST API as the build plugin uses it (upstream-apis.md §2): required User-Agent, bearer
 * auth, API version header, workflow_dispatch with its 422s and with or without run details (GHES mode
 * rejects the flag), runs that show up in the list only after a delay, status/conclusion progression,
 * cancel with 409 on completed runs, and the x-ratelimit-* headers with a 403 once the budget is spent.
 */
export class GitHubStandIn extends ProviderStandIn {
  private readonly repos = new Map<string, GitHubWorkflowSetup[]>();
  private readonly runs: Run[] = [];
  private nextRunId = 7_000_001;
  private remaining: number;
  private resetAt = Math.floor(Date.now() / 1000) + 3600;

  constructor(private readonly options: GitHubStandInOptions) {
    super('github', () => ({
      status: 404,
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
    }));
    this.remaining = options.rateLimit ?? 5000;
    const p = this.prefix;
    this.route('POST', `${p}/repos/:owner/:repo/actions/workflows/:workflow/dispatches`, (req) =>
      this.guarded(req, () => this.dispatch(req)),
    )
      .route('GET', `${p}/repos/:owner/:repo/actions/workflows/:workflow/runs`, (req) =>
        this.guarded(req, () => this.listRuns(req)),
      )
      .route('GET', `${p}/repos/:owner/:repo/actions/runs/:id`, (req) =>
        this.guarded(req, () => this.getRun(req)),
      )
      .route('POST', `${p}/repos/:owner/:repo/actions/runs/:id/cancel`, (req) =>
        this.guarded(req, () => this.cancelRun(req)),
      );
  }

  private get prefix(): string {
    return this.options.mode === 'ghes' ? '/api/v3' : '';
  }

  /** What GITHUB_API_URL must be (GHES: https://HOST/api/v3). */
  get apiUrl(): string {
    return `${this.server.url}${this.prefix}`;
  }

  addWorkflow(repo: string, setup: GitHubWorkflowSetup): this {
    this.repos.set(repo, [...(this.repos.get(repo) ?? []), setup]);
    return this;
  }

  /** Runs created (accepted dispatches), optionally of one workflow file. */
  runsOf(
    repo: string,
    file?: string,
  ): Array<{ id: number; inputs: Record<string, unknown>; status: string; conclusion: string | null }> {
    return this.runs
      .filter((r) => r.repo === repo && (file === undefined || r.workflow.file === file))
      .map((r) => ({ id: r.id, inputs: r.inputs, ...this.statusOf(r) }));
  }

  /** Spends the primary rate limit: the next calls get 403 until `resetInSeconds` from now. */
  exhaustRateLimit(resetInSeconds: number): void {
    this.remaining = 0;
    this.resetAt = Math.floor(Date.now() / 1000) + resetInSeconds;
  }

  /** Gives the primary rate limit its full budget again. */
  resetRateLimit(): void {
    this.remaining = this.options.rateLimit ?? 5000;
    this.resetAt = Math.floor(Date.now() / 1000) + 3600;
  }

  // ---- request checks -------------------------------------------------------------------------------

  private guarded(req: StandInRequest, next: () => StandInResponse): StandInResponse {
    if (!req.headers['user-agent']) {
      return {
        status: 403,
        headers: { 'Content-Type': 'text/plain' },
        body: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.\n',
      };
    }
    const version = req.headers['x-github-api-version'];
    if (typeof version === 'string' && !API_VERSIONS.includes(version)) {
      return this.error(400, `API version ${version} is not supported.`, `${DOCS}`);
    }
    const token = credential(req, 'Bearer') ?? credential(req, 'token');
    if (token === undefined)
      return this.error(401, 'Requires authentication', 'https://docs.github.com/rest');
    if (token !== this.options.token)
      return this.error(401, 'Bad credentials', 'https://docs.github.com/rest');
    const reply = this.limited() ?? next();
    return { ...reply, headers: { ...this.rateHeaders(), ...reply.headers } };
  }

  private limited(): StandInResponse | undefined {
    if (Math.floor(Date.now() / 1000) >= this.resetAt) {
      this.remaining = this.options.rateLimit ?? 5000;
      this.resetAt = Math.floor(Date.now() / 1000) + 3600;
    }
    if (this.remaining > 0) {
      this.remaining--;
      return undefined;
    }
    return this.error(
      403,
      'API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, please include the request ID 4A1B:2C3D:5E6F:7A8B:9C0D.',
      'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
    );
  }

  private rateHeaders(): Record<string, string> {
    const limit = this.options.rateLimit ?? 5000;
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(this.remaining),
      'x-ratelimit-used': String(limit - this.remaining),
      'x-ratelimit-reset': String(this.resetAt),
      'x-ratelimit-resource': 'core',
      'x-github-api-version-selected': '2022-11-28',
    };
  }

  private error(status: number, message: string, documentationUrl: string): StandInResponse {
    return { status, body: { message, documentation_url: documentationUrl, status: String(status) } };
  }

  private workflowOf(req: StandInRequest): GitHubWorkflowSetup | undefined {
    const workflows = this.repos.get(`${req.params.owner}/${req.params.repo}`) ?? [];
    const wanted = req.params.workflow;
    return workflows.find((w) => String(w.id) === wanted || w.file === wanted);
  }

  // ---- endpoints --------------------------------------------------------------------------------------

  private dispatch(req: StandInRequest): StandInResponse {
    const docs = `${DOCS}/workflows#create-a-workflow-dispatch-event`;
    const workflow = this.workflowOf(req);
    if (!workflow) return this.error(404, 'Not Found', docs);
    const body = (req.body ?? {}) as {
      ref?: unknown;
      inputs?: Record<string, unknown>;
      return_run_details?: unknown;
    };
    const allowed = new Set([
      'ref',
      'inputs',
      ...(this.options.mode === 'ghes' ? [] : ['return_run_details']),
    ]);
    const stray = Object.keys(body).find((k) => !allowed.has(k));
    if (stray) return this.error(422, `Invalid request.\n\n"${stray}" is not a permitted key.`, docs);
    if (typeof body.ref !== 'string')
      return this.error(422, 'Invalid request.\n\n"ref" wasn\'t supplied.', docs);
    const ref = body.ref.replace(/^refs\/(heads|tags)\//, '');
    if (!(workflow.refs ?? ['main']).includes(ref))
      return this.error(422, `No ref found for: ${body.ref}`, docs);
    const inputs = body.inputs ?? {};
    if (Object.keys(inputs).length > MAX_INPUTS)
      return this.error(
        422,
        `you may only define up to ${MAX_INPUTS} \`inputs\` for a \`workflow_dispatch\` event`,
        docs,
      );
    const declared = workflow.inputs ?? {};
    const unexpected = Object.keys(inputs).filter((k) => !Object.hasOwn(declared, k));
    if (unexpected.length > 0)
      return this.error(422, `Unexpected inputs provided: ${JSON.stringify(unexpected)}`, docs);
    const missing = Object.entries(declared).find(
      ([k, d]) => d.required && (inputs[k] === undefined || inputs[k] === ''),
    );
    if (missing) return this.error(422, `Required input '${missing[0]}' not provided`, docs);

    const repo = `${req.params.owner}/${req.params.repo}`;
    const run = this.createRun(repo, workflow, ref, inputs);
    if (body.return_run_details === true && this.options.mode !== 'no-details') {
      return {
        status: 200,
        body: {
          workflow_run_id: run.id,
          run_url: `${this.apiUrl}/repos/${repo}/actions/runs/${run.id}`,
          html_url: this.htmlUrl(run),
        },
      };
    }
    return { status: 204 };
  }

  private createRun(
    repo: string,
    workflow: GitHubWorkflowSetup,
    ref: string,
    inputs: Record<string, unknown>,
  ): Run {
    const previous = this.runs.filter((r) => r.workflow === workflow);
    const conclusions = workflow.conclusions ?? ['success'];
    const stages: Array<LifecycleStep<RunStatus>> = [{ state: 'queued', ...workflow.queued }];
    if (workflow.waiting) stages.push({ state: 'waiting', ...workflow.waiting });
    stages.push({ state: 'in_progress', ...workflow.inProgress }, { state: 'completed' });
    const title = workflow.runName
      ? workflow.runName.replace(/\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}/g, (_, name: string) =>
          String(inputs[name] ?? ''),
        )
      : (workflow.name ?? workflow.file);
    const run: Run = {
      id: this.nextRunId++,
      repo,
      workflow,
      ref,
      inputs,
      displayTitle: title,
      runNumber: previous.length + 1,
      createdAt: Date.now(),
      life: new Lifecycle(stages),
      conclusion: conclusions[Math.min(previous.length, conclusions.length - 1)],
      listReadsLeft: workflow.appearAfter?.polls ?? 0,
    };
    this.runs.push(run);
    return run;
  }

  private statusOf(
    run: Run,
    observed: RunStatus = run.life.state,
  ): { status: RunStatus; conclusion: string | null } {
    if (observed !== 'queued' && observed !== 'waiting') run.startedAt ??= Date.now();
    if (observed === 'completed') run.completedAt ??= Date.now();
    return { status: observed, conclusion: observed === 'completed' ? run.conclusion : null };
  }

  private runJson(run: Run, read: boolean): Record<string, unknown> {
    const { status, conclusion } = this.statusOf(run, read ? run.life.read().state : run.life.state);
    const api = `${this.apiUrl}/repos/${run.repo}/actions/runs/${run.id}`;
    return {
      id: run.id,
      name: run.workflow.name ?? run.workflow.file,
      display_title: run.displayTitle,
      run_number: run.runNumber,
      run_attempt: 1,
      event: 'workflow_dispatch',
      status,
      conclusion,
      workflow_id: run.workflow.id,
      head_branch: run.ref,
      head_sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
      path: `.github/workflows/${run.workflow.file}`,
      url: api,
      html_url: this.htmlUrl(run),
      jobs_url: `${api}/jobs`,
      logs_url: `${api}/logs`,
      cancel_url: `${api}/cancel`,
      created_at: iso(run.createdAt),
      run_started_at: iso(run.startedAt ?? run.createdAt),
      updated_at: iso(run.completedAt ?? Date.now()),
    };
  }

  private htmlUrl(run: Run): string {
    return `https://github.example/${run.repo}/actions/runs/${run.id}`;
  }

  private visible(run: Run): boolean {
    const ms = run.workflow.appearAfter?.ms;
    if (ms !== undefined && Date.now() - run.createdAt < ms) return false;
    if (run.listReadsLeft > 0) {
      run.listReadsLeft--;
      return false;
    }
    return true;
  }

  private listRuns(req: StandInRequest): StandInResponse {
    const workflow = this.workflowOf(req);
    if (!workflow)
      return this.error(404, 'Not Found', `${DOCS}/workflow-runs#list-workflow-runs-for-a-workflow`);
    const q = req.query;
    const created = /^>=?(.+)$/.exec(q.get('created') ?? '');
    const since = created ? Date.parse(created[1]) : undefined;
    const matching = this.runs
      .filter((r) => r.workflow === workflow && r.repo === `${req.params.owner}/${req.params.repo}`)
      .filter(() => !q.get('event') || q.get('event') === 'workflow_dispatch')
      .filter((r) => !q.get('branch') || q.get('branch') === r.ref)
      .filter((r) => since === undefined || r.createdAt >= since - 999)
      .filter(
        (r) =>
          !q.get('status') ||
          this.statusOf(r).status === q.get('status') ||
          this.statusOf(r).conclusion === q.get('status'),
      )
      .filter((r) => this.visible(r))
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    const perPage = Math.min(Number(q.get('per_page') ?? 30) || 30, 100);
    const page = Math.max(Number(q.get('page') ?? 1) || 1, 1);
    const slice = matching.slice((page - 1) * perPage, page * perPage);
    const headers: Record<string, string> = {};
    if (page * perPage < matching.length) {
      const next = new URLSearchParams(q);
      next.set('page', String(page + 1));
      headers.Link = `<${this.server.url}${req.path}?${next}>; rel="next"`;
    }
    return {
      headers,
      body: { total_count: matching.length, workflow_runs: slice.map((r) => this.runJson(r, false)) },
    };
  }

  private findRun(req: StandInRequest): Run | undefined {
    return this.runs.find(
      (r) => String(r.id) === req.params.id && r.repo === `${req.params.owner}/${req.params.repo}`,
    );
  }

  private getRun(req: StandInRequest): StandInResponse {
    const run = this.findRun(req);
    if (!run) return this.error(404, 'Not Found', `${DOCS}/workflow-runs#get-a-workflow-run`);
    return { body: this.runJson(run, true) };
  }

  private cancelRun(req: StandInRequest): StandInResponse {
    const run = this.findRun(req);
    if (!run) return this.error(404, 'Not Found', `${DOCS}/workflow-runs#cancel-a-workflow-run`);
    if (this.statusOf(run).status === 'completed') {
      return this.error(
        409,
        'Cannot cancel a workflow run that is completed.',
        `${DOCS}/workflow-runs#cancel-a-workflow-run`,
      );
    }
    run.conclusion = 'cancelled';
    run.life.redirect([{ state: 'completed' }]);
    return { status: 202, body: {} };
  }
}
