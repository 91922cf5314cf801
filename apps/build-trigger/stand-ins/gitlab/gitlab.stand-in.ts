import { credential, Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse, Timing } from '@app/local-agent';

export type GitLabStatus =
  | 'created'
  | 'waiting_for_resource'
  | 'preparing'
  | 'pending'
  | 'running'
  | 'success'
  | 'failed'
  | 'canceling'
  | 'canceled'
  | 'skipped'
  | 'manual'
  | 'scheduled'
  | 'waiting_for_callback';

export interface GitLabProjectSetup {
  id: number;
  /** Full path, e.g. group/sub/project. */
  path: string;
  /** Branches and tags (default main). */
  refs?: string[];
  /** Non-final statuses a pipeline goes through, each for some reads or time (default created, pending, running: one read each). */
  stages?: Array<Timing & { status: GitLabStatus }>;
  /** Final status of each pipeline in turn (the last one repeats; default success). */
  outcomes?: GitLabStatus[];
  /** `workflow: name: $ARGO_KEY` in .gitlab-ci.yml: pipelines are named after that variable. */
  nameFromArgoKey?: boolean;
  /** The rules let no job run: creation fails with 400. */
  rulesPreventRun?: boolean;
  /** Jobs allowed to fail did fail: detailed_status.group success-with-warnings. */
  warnings?: boolean;
}

export interface GitLabStandInOptions {
  /** Personal/project access token accepted in PRIVATE-TOKEN or Authorization: Bearer. */
  token: string;
  /** Pipeline trigger token accepted by the trigger endpoint. */
  triggerToken?: string;
  /** false: GitLab before 16.9, which ignores the `name` list filter. */
  nameFilter?: boolean;
}

interface Pipeline {
  id: number;
  iid: number;
  project: GitLabProjectSetup;
  ref: string;
  source: 'api' | 'trigger';
  variables: Record<string, string>;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  life: Lifecycle<GitLabStatus>;
}

const FINAL = new Set<GitLabStatus>(['success', 'failed', 'canceled', 'skipped']);
const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/**
 * GitLab's pipelines API as the build plugin uses it (upstream-apis.md §3): PRIVATE-TOKEN/Bearer auth,
 * `:id` as a number or a once-encoded path (an unencoded or doubly encoded path is not found), create with
 * an API token (JSON) or a trigger token (form fields), the three error body shapes, status progression
 * including canceling, manual and scheduled, the `name` filter and other list filters with pagination
 * headers, the variables endpoint, and cancel that answers 200 whatever the state.
 */
export class GitLabStandIn extends ProviderStandIn {
  private readonly projects: GitLabProjectSetup[] = [];
  private readonly pipelines: Pipeline[] = [];
  private nextId = 5001;

  constructor(private readonly options: GitLabStandInOptions) {
    super('gitlab', () => ({ status: 404, body: { error: '404 Not Found' } }));
    const base = '/api/v4/projects/:project';
    this.route('POST', `${base}/pipeline`, (req) => this.authed(req, () => this.create(req, 'api')))
      .route('POST', `${base}/trigger/pipeline`, (req) => this.create(req, 'trigger'))
      .route('GET', `${base}/pipelines`, (req) => this.authed(req, () => this.list(req)))
      .route('GET', `${base}/pipelines/:id`, (req) =>
        this.authed(req, () => this.withPipeline(req, (p) => ({ body: this.json(p, true) }))),
      )
      .route('GET', `${base}/pipelines/:id/variables`, (req) =>
        this.authed(req, () => this.withPipeline(req, (p) => ({ body: this.variablesJson(p) }))),
      )
      .route('POST', `${base}/pipelines/:id/cancel`, (req) =>
        this.authed(req, () => this.withPipeline(req, (p) => this.cancel(p))),
      );
  }

  /** What GITLAB_URL must be (the instance root). */

  addProject(setup: GitLabProjectSetup): this {
    this.projects.push(setup);
    return this;
  }

  /** Pipelines created in a project, oldest first. */
  pipelinesOf(
    path: string,
  ): Array<{ id: number; source: string; variables: Record<string, string>; status: GitLabStatus }> {
    return this.pipelines
      .filter((p) => p.project.path === path)
      .map((p) => ({ id: p.id, source: p.source, variables: p.variables, status: p.life.state }));
  }

  private authed(req: StandInRequest, next: () => StandInResponse): StandInResponse {
    const given = req.headers['private-token'] ?? credential(req, 'Bearer');
    if (given !== this.options.token) return { status: 401, body: { message: '401 Unauthorized' } };
    return next();
  }

  private projectOf(req: StandInRequest): GitLabProjectSetup | undefined {
    const id = req.params.project; // decoded once by the router, as GitLab's does
    return this.projects.find((p) => String(p.id) === id || p.path === id);
  }

  private withPipeline(req: StandInRequest, fn: (p: Pipeline) => StandInResponse): StandInResponse {
    const project = this.projectOf(req);
    if (!project) return { status: 404, body: { message: '404 Project Not Found' } };
    const pipeline = this.pipelines.find((p) => p.project === project && String(p.id) === req.params.id);
    if (!pipeline) return { status: 404, body: { message: '404 Not found' } };
    return fn(pipeline);
  }

  private create(req: StandInRequest, source: 'api' | 'trigger'): StandInResponse {
    const body = (req.body ?? {}) as Record<string, unknown>;
    let variables: Record<string, string>;
    if (source === 'trigger') {
      const token = body.token ?? req.query.get('token');
      if (!this.options.triggerToken || token !== this.options.triggerToken)
        return { status: 404, body: { message: '404 Not Found' } };
      const fromForm = Object.entries(body).filter(([k]) => /^variables\[.+\]$/.test(k));
      const map =
        fromForm.length > 0
          ? Object.fromEntries(fromForm.map(([k, v]) => [k.slice(10, -1), v]))
          : ((body.variables ?? {}) as Record<string, unknown>);
      if (
        typeof map !== 'object' ||
        Array.isArray(map) ||
        Object.values(map).some((v) => typeof v !== 'string')
      ) {
        return { status: 400, body: { error: 'variables needs to be a map of key-valued strings' } };
      }
      variables = map as Record<string, string>;
    } else {
      const list = body.variables ?? [];
      if (
        !Array.isArray(list) ||
        list.some((v) => !v || typeof v.key !== 'string' || typeof v.value !== 'string')
      ) {
        return { status: 400, body: { error: 'variables is invalid' } };
      }
      variables = Object.fromEntries(list.map((v: { key: string; value: string }) => [v.key, v.value]));
    }
    const project = this.projectOf(req);
    if (!project) return { status: 404, body: { message: '404 Project Not Found' } };
    const ref = (body.ref ?? req.query.get('ref')) as string | undefined;
    if (!ref) return { status: 400, body: { error: 'ref is missing' } };
    if (!(project.refs ?? ['main']).includes(ref))
      return { status: 400, body: { message: { base: ['Reference not found'] } } };
    if (project.rulesPreventRun) {
      return {
        status: 400,
        body: {
          message: {
            base: [
              'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
            ],
          },
        },
      };
    }
    const previous = this.pipelines.filter((p) => p.project === project).length;
    const outcomes = project.outcomes ?? ['success'];
    const stages: Array<LifecycleStep<GitLabStatus>> = (
      project.stages ?? [{ status: 'created' }, { status: 'pending' }, { status: 'running' }]
    ).map((s) => ({ state: s.status, polls: s.polls, ms: s.ms }));
    const pipeline: Pipeline = {
      id: this.nextId++,
      iid: previous + 1,
      project,
      ref,
      source,
      variables,
      createdAt: Date.now(),
      life: new Lifecycle([...stages, { state: outcomes[Math.min(previous, outcomes.length - 1)] }]),
    };
    this.pipelines.push(pipeline);
    return { status: 201, body: this.json(pipeline, false) };
  }

  private cancel(p: Pipeline): StandInResponse {
    if (!FINAL.has(p.life.state)) {
      p.life.redirect([{ state: 'canceled' }]);
      return { status: 200, body: { ...this.json(p, false), status: 'canceling' } };
    }
    return { status: 200, body: this.json(p, false) };
  }

  private list(req: StandInRequest): StandInResponse {
    const project = this.projectOf(req);
    if (!project) return { status: 404, body: { message: '404 Project Not Found' } };
    const q = req.query;
    const sort = q.get('sort') === 'asc' ? 1 : -1;
    const matching = this.pipelines
      .filter((p) => p.project === project)
      .filter((p) => !q.get('name') || this.options.nameFilter === false || this.nameOf(p) === q.get('name'))
      .filter((p) => !q.get('ref') || p.ref === q.get('ref'))
      .filter((p) => !q.get('source') || p.source === q.get('source'))
      .filter((p) => !q.get('status') || p.life.state === q.get('status'))
      .filter((p) => !q.get('updated_after') || p.createdAt >= Date.parse(q.get('updated_after')!))
      .sort((a, b) => sort * (a.id - b.id));
    const perPage = Math.min(Number(q.get('per_page') ?? 20) || 20, 100);
    const page = Math.max(Number(q.get('page') ?? 1) || 1, 1);
    const pages = Math.max(1, Math.ceil(matching.length / perPage));
    const headers: Record<string, string> = {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-total': String(matching.length),
      'x-total-pages': String(pages),
      'x-next-page': page < pages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
    };
    const slice = matching.slice((page - 1) * perPage, page * perPage).map((p) => this.listItem(p));
    return { headers, body: slice };
  }

  private nameOf(p: Pipeline): string | null {
    return p.project.nameFromArgoKey ? (p.variables.ARGO_KEY ?? null) : null;
  }

  private listItem(p: Pipeline): Record<string, unknown> {
    const full = this.json(p, false);
    const keys = [
      'id',
      'iid',
      'project_id',
      'sha',
      'ref',
      'status',
      'source',
      'created_at',
      'updated_at',
      'web_url',
      'name',
    ];
    return Object.fromEntries(keys.map((k) => [k, full[k]]));
  }

  private json(p: Pipeline, read: boolean): Record<string, unknown> {
    const status = read ? p.life.read().state : p.life.state;
    if (status === 'running') p.startedAt ??= Date.now();
    if (FINAL.has(status)) {
      p.startedAt ??= Date.now();
      p.finishedAt ??= Date.now();
    }
    const group = status === 'success' && p.project.warnings ? 'success-with-warnings' : status;
    return {
      id: p.id,
      iid: p.iid,
      project_id: p.project.id,
      sha: 'a91957a858320c0e17f3a0eca7cfacbff50ea29a',
      ref: p.ref,
      status,
      source: p.source,
      name: this.nameOf(p),
      created_at: iso(p.createdAt),
      updated_at: iso(Date.now()),
      web_url: `https://gitlab.example/${p.project.path}/-/pipelines/${p.id}`,
      before_sha: '0000000000000000000000000000000000000000',
      tag: false,
      yaml_errors: null,
      user: { id: 1, username: 'argo-bot', name: 'Argo Bot', state: 'active' },
      started_at: iso(p.startedAt),
      finished_at: iso(p.finishedAt),
      committed_at: null,
      duration:
        p.startedAt !== undefined && p.finishedAt !== undefined
          ? Math.round((p.finishedAt - p.startedAt) / 1000)
          : null,
      queued_duration: 0.5,
      coverage: null,
      detailed_status: {
        icon: `status_${status}`,
        text: status,
        label: status,
        group,
        tooltip: status,
        has_details: true,
        details_path: `/${p.project.path}/-/pipelines/${p.id}`,
      },
    };
  }

  private variablesJson(p: Pipeline): Array<Record<string, unknown>> {
    return Object.entries(p.variables).map(([key, value]) => ({
      variable_type: 'env_var',
      key,
      value,
      raw: false,
    }));
  }
}
