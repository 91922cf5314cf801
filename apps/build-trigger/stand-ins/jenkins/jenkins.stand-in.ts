import { createHash, randomBytes } from 'node:crypto';
import { credential, hasBasic, Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse, Timing } from '@app/local-agent';
import { jettyError } from './jetty-error.js';
import { filterTree } from './jenkins-tree.js';

export type JenkinsResult = 'SUCCESS' | 'UNSTABLE' | 'FAILURE' | 'NOT_BUILT' | 'ABORTED';

export interface JenkinsJobSetup {
  /** Declared string parameters (a job without any is not parameterized). */
  parameters?: string[];
  /** false: disabled, triggers answer 409. */
  buildable?: boolean;
  /** How long a queue item waits, and Jenkins' reason. */
  queue?: Timing & { why?: string };
  /** Reads of the LeftItem with `executable: null` before the build object exists. */
  handoffPolls?: number;
  /** How long a build runs. */
  build?: Timing;
  /** Result of each build in turn (the last one repeats). */
  results?: JenkinsResult[];
  /** Shown as `result` while still building (a Pipeline's provisional result). */
  provisionalResult?: JenkinsResult;
}

export interface JenkinsStandInOptions {
  user: string;
  apiToken: string;
  /** Jenkins' configured root URL (build and job `url` fields use it; it may differ from the API host). */
  rootUrl?: string;
  /** POSTs need a crumb bound to the web session (password auth, or a strict crumb issuer). */
  crumbRequired?: boolean;
  /** How long a queue item is kept after leaving the queue (core: 5 minutes). */
  queueRetentionMs?: number;
}

type QueueState = 'waiting' | 'handoff' | 'left';

interface QueueItem {
  id: number;
  job: Job;
  params: Record<string, string>;
  inQueueSince: number;
  life: Lifecycle<QueueState>;
  cancelled: boolean;
  leftAt?: number;
  build?: Build;
}

interface Build {
  number: number;
  queueId: number;
  params: Record<string, string>;
  timestamp: number;
  life: Lifecycle<JenkinsResult | 'building'>;
  aborted?: number;
}

interface Job {
  fullName: string;
  setup: JenkinsJobSetup;
  builds: Build[];
  nextBuildNumber: number;
}

const JOB_PATH =
  /^((?:\/job\/[^/]+)+)\/?(api\/json|build|buildWithParameters|(\d+)\/(api\/json|stop|term|kill))?\/?$/;

/**
 * Jenkins' remote access API as the build plugin uses it (upstream-apis.md §1): Basic auth with an API token
 * (401 for a bad one, 403 for anonymous), an optional crumb bound to the session cookie, folder paths,
 * `build` vs `buildWithParameters` with their 400s, 201 + Location, 303 when merging with a waiting item,
 * the queue listing (`/queue/api/json`, items still in the queue), queue items from Waiting to Left (with the
 * executable-null handoff) to 404 after retention, cancelItem,
 * builds with `building`/`result` transitions and `stop`, the `tree=` filter, and Jetty HTML error pages.
 */
export class JenkinsStandIn extends ProviderStandIn {
  private readonly jobs = new Map<string, Job>();
  private readonly queue = new Map<number, QueueItem>();
  private readonly sessions = new Map<string, string>();
  private nextQueueId = 100;

  constructor(private readonly options: JenkinsStandInOptions) {
    super('jenkins', (req) => jettyError(404, req.path));
    this.route('GET', '/crumbIssuer/api/json', (req) => this.authed(req, () => this.issueCrumb()))
      .route('GET', '/queue/api/json', (req) => this.authed(req, () => this.queueList(req)))
      .route('GET', '/queue/item/:id/api/json', (req) => this.authed(req, () => this.queueItem(req)))
      .route('POST', '/queue/cancelItem', (req) =>
        this.authed(req, () => this.posted(req, () => this.cancelItem(req))),
      )
      .route('GET', JOB_PATH, (req) => this.authed(req, () => this.jobGet(req)))
      .route('POST', JOB_PATH, (req) => this.authed(req, () => this.posted(req, () => this.jobPost(req))));
  }

  /** Adds a job; `fullName` is the item names joined by `/` (a multibranch branch: `repo/feature%2Fx`). */
  addJob(fullName: string, setup: JenkinsJobSetup = {}): this {
    this.jobs.set(fullName, { fullName, setup, builds: [], nextBuildNumber: 1 });
    return this;
  }

  /** Builds of a job, oldest first, as Jenkins would report them. */
  builds(
    fullName: string,
  ): Array<{ number: number; params: Record<string, string>; result: string | null; building: boolean }> {
    const job = this.jobs.get(fullName);
    return (job?.builds ?? []).map((b) => ({ number: b.number, params: b.params, ...this.buildState(b) }));
  }

  /** An executor takes the job's waiting items now (they leave the queue and become builds). */
  takeFromQueue(fullName: string): void {
    for (const item of this.queue.values()) {
      if (item.job.fullName !== fullName || item.cancelled || item.life.state !== 'waiting') continue;
      item.life.redirect([{ state: 'left' }]);
      this.settle(item, 'left');
    }
  }

  /** Queue items ever created for a job (merged requests do not create one). */
  queueItems(fullName: string): number {
    return [...this.queue.values()].filter((q) => q.job.fullName === fullName).length;
  }

  private root(): string {
    return (this.options.rootUrl ?? `${this.server.url}/`).replace(/\/?$/, '/');
  }

  private jobUrl(job: Job): string {
    return `${this.root()}${job.fullName
      .split('/')
      .map((n) => `job/${encodeURIComponent(n)}/`)
      .join('')}`;
  }

  // ---- auth, crumbs -------------------------------------------------------------------------------

  private authed(req: StandInRequest, next: () => StandInResponse): StandInResponse {
    const basic = credential(req, 'Basic');
    if (basic === undefined) {
      const page = jettyError(403, req.path, 'Authentication required');
      return { ...page, headers: { ...page.headers, 'X-You-Are-Authenticated-As': 'anonymous' } };
    }
    if (!hasBasic(req, this.options.user, this.options.apiToken)) {
      const user = Buffer.from(basic, 'base64').toString('utf8').split(':')[0];
      return jettyError(401, req.path, `Invalid password/token for user: ${user}`);
    }
    return next();
  }

  private issueCrumb(): StandInResponse {
    const session = randomBytes(12).toString('hex');
    const crumb = createHash('sha256').update(`crumb:${session}`).digest('hex');
    this.sessions.set(session, crumb);
    return {
      headers: { 'Set-Cookie': `JSESSIONID.4f2a1c=${session}; Path=/; HttpOnly` },
      body: { _class: 'hudson.security.csrf.DefaultCrumbIssuer', crumb, crumbRequestField: 'Jenkins-Crumb' },
    };
  }

  private posted(req: StandInRequest, next: () => StandInResponse): StandInResponse {
    if (!this.options.crumbRequired) return next();
    const session = /JSESSIONID\.[^=]+=([^;\s]+)/.exec(String(req.headers.cookie ?? ''))?.[1];
    const given = req.headers['jenkins-crumb'];
    if (!session || !given || this.sessions.get(session) !== given) {
      return jettyError(403, req.path, 'No valid crumb was included in the request');
    }
    return next();
  }

  // ---- jobs and builds ----------------------------------------------------------------------------

  private findJob(encodedPath: string): Job | undefined {
    const names = encodedPath
      .split('/job/')
      .slice(1)
      .map((segment) => decodeURIComponent(segment));
    return this.jobs.get(names.join('/'));
  }

  /** Time-driven queue items leave on their own, whether or not anyone reads them. */
  private settleAll(): void {
    for (const item of this.queue.values()) this.settle(item, item.cancelled ? 'left' : item.life.state);
  }

  private jobGet(req: StandInRequest): StandInResponse {
    this.settleAll();
    const m = JOB_PATH.exec(req.path)!;
    const job = this.findJob(m[1]);
    if (!job) return jettyError(404, req.path);
    if (m[3] !== undefined) {
      const build = job.builds.find((b) => b.number === Number(m[3]));
      if (!build || m[4] !== 'api/json') return jettyError(404, req.path);
      return { body: filterTree(this.buildJson(job, build, true), req.query.get('tree')) };
    }
    if (m[2] !== 'api/json') return jettyError(404, req.path);
    return { body: filterTree(this.jobJson(job), req.query.get('tree')) };
  }

  private jobPost(req: StandInRequest): StandInResponse {
    this.settleAll();
    const m = JOB_PATH.exec(req.path)!;
    const job = this.findJob(m[1]);
    if (!job) return jettyError(404, req.path);
    if (m[3] !== undefined) return this.stopBuild(req, job, Number(m[3]));
    if (m[2] === 'build' || m[2] === 'buildWithParameters') return this.trigger(req, job, m[2]);
    return jettyError(405, req.path);
  }

  private trigger(req: StandInRequest, job: Job, endpoint: 'build' | 'buildWithParameters'): StandInResponse {
    const declared = job.setup.parameters ?? [];
    if (job.setup.buildable === false) return jettyError(409, req.path, `${job.fullName} is not buildable`);
    const submitted: Record<string, string> = {
      ...Object.fromEntries(req.query),
      ...(req.body && typeof req.body === 'object' ? (req.body as Record<string, string>) : {}),
    };
    delete submitted.delay;
    delete submitted.token;
    if (endpoint === 'build' && declared.length > 0) {
      return jettyError(
        400,
        req.path,
        req.query.size > 0 ? 'This page expects a form submission' : 'Nothing is submitted',
      );
    }
    if (endpoint === 'buildWithParameters' && declared.length === 0)
      return jettyError(400, req.path, `${job.fullName} is not parameterized`);
    // Undeclared parameters are dropped (SECURITY-170); declared ones not given take their (empty) default.
    const params = Object.fromEntries(declared.map((name) => [name, submitted[name] ?? '']));
    const host = `http://${req.headers.host}`;
    const waiting = [...this.queue.values()].find(
      (q) =>
        q.job === job &&
        !q.cancelled &&
        q.life.state === 'waiting' &&
        JSON.stringify(q.params) === JSON.stringify(params),
    );
    if (waiting) {
      // Merged with the identical item still waiting: buildWithParameters says 303 (since 2.308), build says 201.
      return {
        status: endpoint === 'buildWithParameters' ? 303 : 201,
        headers: { Location: `${host}/queue/item/${waiting.id}/` },
      };
    }
    const id = this.nextQueueId++;
    const { queue = {}, handoffPolls = 0 } = job.setup;
    const stages: Array<LifecycleStep<QueueState>> = [{ state: 'waiting', polls: queue.polls, ms: queue.ms }];
    if (handoffPolls > 0) stages.push({ state: 'handoff', polls: handoffPolls });
    this.queue.set(id, {
      id,
      job,
      params,
      inQueueSince: Date.now(),
      cancelled: false,
      life: new Lifecycle<QueueState>([...stages, { state: 'left' }]),
    });
    return { status: 201, headers: { Location: `${host}/queue/item/${id}/` } };
  }

  private stopBuild(req: StandInRequest, job: Job, number: number): StandInResponse {
    const build = job.builds.find((b) => b.number === number);
    if (!build) return jettyError(404, req.path);
    if (this.buildState(build).building) {
      build.life.redirect([{ state: 'ABORTED' }]);
      build.aborted = Date.now();
    }
    return { status: 302, headers: { Location: `${this.jobUrl(job)}${number}/` } };
  }

  /** Moves queue items along; a leaving item gets its build. */
  private settle(item: QueueItem, state: QueueState): void {
    if (state !== 'waiting') item.leftAt ??= Date.now();
    if (state === 'left' && !item.build && !item.cancelled) {
      const job = item.job;
      const results = job.setup.results ?? ['SUCCESS'];
      const result = results[Math.min(job.builds.length, results.length - 1)];
      const { build = {} } = job.setup;
      const created: Build = {
        number: job.nextBuildNumber++,
        queueId: item.id,
        params: item.params,
        timestamp: Date.now(),
        life: new Lifecycle<JenkinsResult | 'building'>([{ state: 'building', ...build }, { state: result }]),
      };
      job.builds.push(created);
      item.build = created;
    }
  }

  /** GET /queue/api/json: the items still in the queue, oldest first (items that left are not listed). */
  private queueList(req: StandInRequest): StandInResponse {
    this.settleAll();
    const items = [...this.queue.values()]
      .filter((item) => !item.cancelled && item.life.state === 'waiting')
      .map((item) => this.queueItemJson(item, 'waiting'));
    return {
      body: filterTree({ _class: 'hudson.model.Queue', discoverableItems: [], items }, req.query.get('tree')),
    };
  }

  private queueItem(req: StandInRequest): StandInResponse {
    const item = this.queue.get(Number(req.params.id));
    if (!item) return jettyError(404, req.path);
    if (item.leftAt !== undefined && Date.now() - item.leftAt > (this.options.queueRetentionMs ?? 300_000)) {
      return jettyError(404, req.path);
    }
    const state = item.cancelled ? 'left' : item.life.read().state;
    this.settle(item, item.cancelled ? 'left' : item.life.state);
    return { body: filterTree(this.queueItemJson(item, state), req.query.get('tree')) };
  }

  private queueItemJson(item: QueueItem, state: QueueState): Record<string, unknown> {
    const base = {
      id: item.id,
      inQueueSince: item.inQueueSince,
      params: Object.entries(item.params)
        .map(([k, v]) => `\n${k}=${v}`)
        .join(''),
      task: {
        _class: 'hudson.model.FreeStyleProject',
        name: item.job.fullName.split('/').pop(),
        url: this.jobUrl(item.job),
      },
      url: `queue/item/${item.id}/`,
      stuck: false,
      actions: [{ _class: 'hudson.model.ParametersAction', parameters: this.parameterValues(item.params) }],
    };
    return state === 'waiting'
      ? {
          _class: 'hudson.model.Queue$WaitingItem',
          ...base,
          blocked: false,
          buildable: false,
          why: item.job.setup.queue?.why ?? 'In the quiet period. Expires in 4.9 sec',
          timestamp: item.inQueueSince + 5000,
        }
      : {
          _class: 'hudson.model.Queue$LeftItem',
          ...base,
          blocked: false,
          buildable: false,
          why: null,
          cancelled: item.cancelled,
          executable:
            state === 'left' && item.build
              ? {
                  _class: 'hudson.model.FreeStyleBuild',
                  number: item.build.number,
                  url: `${this.jobUrl(item.job)}${item.build.number}/`,
                }
              : null,
        };
  }

  private cancelItem(req: StandInRequest): StandInResponse {
    const id = Number(req.query.get('id'));
    const item = this.queue.get(id);
    if (
      !item ||
      (item.leftAt !== undefined && Date.now() - item.leftAt > (this.options.queueRetentionMs ?? 300_000))
    ) {
      return jettyError(404, req.path, `Provided id (${req.query.get('id')}) not found`);
    }
    if (item.cancelled || item.life.state !== 'waiting')
      return jettyError(422, req.path, `Queue item ${id} is not cancellable`);
    item.cancelled = true;
    item.leftAt = Date.now();
    return { status: 204 };
  }

  private buildState(build: Build): { building: boolean; result: string | null } {
    const state = build.life.state;
    return state === 'building' ? { building: true, result: null } : { building: false, result: state };
  }

  private parameterValues(params: Record<string, string>): Array<Record<string, string>> {
    return Object.entries(params).map(([name, value]) => ({
      _class: 'hudson.model.StringParameterValue',
      name,
      value,
    }));
  }

  private buildJson(job: Job, build: Build, poll: boolean): Record<string, unknown> {
    const state = poll ? build.life.read().state : build.life.state;
    const building = state === 'building';
    const result = building ? (job.setup.provisionalResult ?? null) : state;
    const end = build.aborted ?? Date.now();
    return {
      _class: 'hudson.model.FreeStyleBuild',
      number: build.number,
      url: `${this.jobUrl(job)}${build.number}/`,
      building,
      inProgress: building,
      result,
      duration: building ? 0 : Math.max(1, end - build.timestamp),
      timestamp: build.timestamp,
      queueId: build.queueId,
      displayName: `#${build.number}`,
      actions: [
        {
          _class: 'hudson.model.CauseAction',
          causes: [{ _class: 'hudson.model.Cause$UserIdCause', userId: this.options.user }],
        },
        ...(Object.keys(build.params).length > 0
          ? [{ _class: 'hudson.model.ParametersAction', parameters: this.parameterValues(build.params) }]
          : []),
      ],
    };
  }

  private jobJson(job: Job): Record<string, unknown> {
    const declared = job.setup.parameters ?? [];
    return {
      _class: 'hudson.model.FreeStyleProject',
      name: job.fullName.split('/').pop(),
      fullName: job.fullName,
      url: this.jobUrl(job),
      buildable: job.setup.buildable !== false,
      inQueue: [...this.queue.values()].some(
        (q) => q.job === job && q.life.state === 'waiting' && !q.cancelled,
      ),
      nextBuildNumber: job.nextBuildNumber,
      property:
        declared.length > 0
          ? [
              {
                _class: 'hudson.model.ParametersDefinitionProperty',
                parameterDefinitions: declared.map((name) => ({
                  _class: 'hudson.model.StringParameterDefinition',
                  name,
                  type: 'StringParameterDefinition',
                  defaultParameterValue: { _class: 'hudson.model.StringParameterValue', name, value: '' },
                })),
              },
            ]
          : [],
      builds: [...job.builds].reverse().map((b) => this.buildJson(job, b, false)),
    };
  }
}
