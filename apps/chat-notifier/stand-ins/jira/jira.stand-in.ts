import { credential, ProviderStandIn, type StandInRequest, type StandInResponse } from '@app/local-agent';
import { ApprovalScript } from '../approval-script.js';
import { parseJql } from './jira-jql.js';

export interface JiraUser {
  accountId: string;
  displayName: string;
  email: string;
  accountType: 'atlassian' | 'app';
  /** API tokens of this account (basic auth: email and token). */
  tokens: Set<string>;
}

export interface JiraStatusDef {
  id: string;
  name: string;
  category: 'new' | 'indeterminate' | 'done';
}

export interface JiraCommentRec {
  id: string;
  author: JiraUser;
  body: unknown;
  created: string;
}

export interface JiraChangeRec {
  id: string;
  author: JiraUser;
  created: string;
  items: Array<{
    field: string;
    fieldId: string;
    from: string;
    fromString: string;
    to: string;
    toString: string;
  }>;
}

export interface JiraIssueRec {
  id: string;
  key: string;
  project: string;
  issueType: string;
  summary: string;
  description: unknown;
  labels: string[];
  creator: JiraUser;
  created: string;
  status: JiraStatusDef;
  comments: JiraCommentRec[];
  changelog: JiraChangeRec[];
  deleted?: boolean;
}

/** The statuses of the stand-in's one workflow; every status can be reached from any other (global transitions). */
export const JIRA_STATUSES: JiraStatusDef[] = [
  { id: '10000', name: 'To Do', category: 'new' },
  { id: '10001', name: 'In Progress', category: 'indeterminate' },
  { id: '10002', name: 'Done', category: 'done' },
  { id: '10003', name: 'Approved', category: 'done' },
  { id: '10004', name: 'Rejected', category: 'done' },
];

const ISSUE_TYPES = ['Task', 'Change', 'Bug'];
const CATEGORY_NAMES = { new: 'To Do', indeterminate: 'In Progress', done: 'Done' };

/** Jira's error body. */
const error = (status: number, messages: string[], errors: Record<string, string> = {}): StandInResponse => ({
  status,
  body: { errorMessages: messages, errors },
});
const NO_ISSUE = () => error(404, ['Issue does not exist or you do not have permission to see it.']);

/**
 * Jira Cloud's REST API v3 (https://developer.atlassian.com/cloud/jira/platform/rest/v3/) for the calls an
 * approval gate makes: myself; create and get an issue; the enhanced JQL search (POST /rest/api/3/search/jql,
 * paged by `nextPageToken`, `isLast`); an issue's changelog and comments (PageBeans: `startAt`, `maxResults`,
 * `total`); add a comment; list and do transitions; a status by id. Basic auth with an account's email and API
 * token is checked (none: 401; a wrong pair: 401); an issue in a project the account may not browse is the 404
 * Jira gives for one that does not exist. Errors are `{errorMessages, errors}`. Times are Jira's
 * `2026-06-07T10:00:00.000+0000`, moving at least one millisecond per change. `rateLimit` answers as Jira's
 * burst limit does: 429 with Retry-After and the X-RateLimit-* headers. A scripted approver (`script`) acts after
 * an issue's changelog has been read a number of times.
 */
export class JiraStandIn extends ProviderStandIn {
  readonly users = new Map<string, JiraUser>();
  /** Project key → account ids that may browse it (and create, comment, transition in it). */
  readonly projects = new Map<string, Set<string>>();
  readonly issues: JiraIssueRec[] = [];
  readonly script = new ApprovalScript();
  /** Most items one page hands out (Jira may give fewer than asked); a test lowers it to see paging. */
  pageLimit = 100;
  private clock = 0;
  private ids = 10100;

  constructor() {
    super('jira', () => error(404, ['Not Found']));
    this.route('GET', '/rest/api/3/myself', (req) =>
      this.authed(req, (u) => ({ body: userView(u, this.url) })),
    )
      .route('POST', '/rest/api/3/issue', (req) => this.authed(req, (u) => this.create(u, req)))
      .route('GET', '/rest/api/3/issue/:key', (req) =>
        this.withIssue(req, (_u, issue) => ({ body: this.issueView(issue) })),
      )
      .route('POST', '/rest/api/3/search/jql', (req) => this.authed(req, (u) => this.search(u, req)))
      .route('GET', '/rest/api/3/issue/:key/changelog', (req) =>
        this.withIssue(req, (_u, issue) => {
          this.script.read(issue.key);
          return this.pageBean(
            req,
            'values',
            issue.changelog.map((c) => ({ ...c, author: userView(c.author, this.url) })),
          );
        }),
      )
      .route('GET', '/rest/api/3/issue/:key/comment', (req) =>
        this.withIssue(req, (_u, issue) =>
          this.pageBean(
            req,
            'comments',
            issue.comments.map((c) => this.commentView(c)),
          ),
        ),
      )
      .route('POST', '/rest/api/3/issue/:key/comment', (req) =>
        this.withIssue(req, (u, issue) => {
          const body = (req.body as { body?: unknown } | undefined)?.body;
          if (!isAdf(body)) return error(400, [], { comment: 'Comment body can not be empty!' });
          return { status: 201, body: this.commentView(this.comment(issue, u, body)) };
        }),
      )
      .route('GET', '/rest/api/3/issue/:key/transitions', (req) =>
        this.withIssue(req, (_u, issue) => ({
          body: {
            transitions: this.transitionsOf(issue).map((t) => ({
              id: t.id,
              name: t.name,
              to: statusView(t.to),
            })),
          },
        })),
      )
      .route('POST', '/rest/api/3/issue/:key/transitions', (req) =>
        this.withIssue(req, (u, issue) => {
          const id = (req.body as { transition?: { id?: unknown } } | undefined)?.transition?.id;
          const transition = this.transitionsOf(issue).find((t) => t.id === String(id));
          if (!transition) return error(400, [`Transition id '${String(id)}' is not valid for this issue.`]);
          this.transition(issue, u, transition.to.name);
          return { status: 204 };
        }),
      )
      .route('GET', '/rest/api/3/status/:id', (req) =>
        this.authed(req, () => {
          const status = JIRA_STATUSES.find(
            (s) => s.id === req.params.id || s.name === decodeURIComponent(req.params.id!),
          );
          return status
            ? { body: statusView(status) }
            : error(404, [`The status with id '${req.params.id}' does not exist.`]);
        }),
      );
  }

  addUser(accountId: string, options: { email?: string; token?: string; app?: boolean } = {}): JiraUser {
    const user: JiraUser = {
      accountId,
      displayName: accountId,
      email: options.email ?? `${accountId}@example.com`,
      accountType: options.app ? 'app' : 'atlassian',
      tokens: new Set(options.token ? [options.token] : []),
    };
    this.users.set(accountId, user);
    return user;
  }

  addProject(key: string, members: JiraUser[]): void {
    this.projects.set(key, new Set(members.map((m) => m.accountId)));
  }

  issue(key: string): JiraIssueRec | undefined {
    return this.issues.find((i) => i.key === key && !i.deleted);
  }

  /** Someone opens an issue (the gate's forger, a test's fixture). */
  open(
    by: JiraUser,
    fields: { project: string; summary: string; labels?: string[]; issueType?: string },
  ): JiraIssueRec {
    const id = String(this.ids++);
    const issue: JiraIssueRec = {
      id,
      key: `${fields.project}-${this.issues.filter((i) => i.project === fields.project).length + 1}`,
      project: fields.project,
      issueType: fields.issueType ?? 'Task',
      summary: fields.summary,
      description: null,
      labels: fields.labels ?? [],
      creator: by,
      created: this.tick(),
      status: JIRA_STATUSES[0]!,
      comments: [],
      changelog: [],
    };
    this.issues.push(issue);
    return issue;
  }

  /** `by` moves the issue to the status named `to` (recorded in its changelog). */
  transition(issue: JiraIssueRec, by: JiraUser, to: string): void {
    const status = JIRA_STATUSES.find((s) => s.name === to);
    if (!status) throw new Error(`no status ${to}`);
    const item = {
      field: 'status',
      fieldId: 'status',
      from: issue.status.id,
      fromString: issue.status.name,
      to: status.id,
      toString: status.name,
    };
    issue.changelog.push({ id: String(this.ids++), author: by, created: this.tick(), items: [item] });
    issue.status = status;
  }

  comment(issue: JiraIssueRec, by: JiraUser, body: unknown): JiraCommentRec {
    const comment = { id: String(this.ids++), author: by, body, created: this.tick() };
    issue.comments.push(comment);
    return comment;
  }

  /** An admin deletes the issue: 404 from then on. */
  remove(issue: JiraIssueRec): void {
    issue.deleted = true;
  }

  /**
   * The next `times` calls of `method` on a path starting with `path` hit Jira's burst limit: 429 with
   * Retry-After (or, `withRetryAfter: false`, only X-RateLimit-Reset) and the other X-RateLimit-* headers.
   */
  rateLimit(
    method: string,
    path: string,
    seconds: number,
    options: { times?: number; withRetryAfter?: boolean } = {},
  ): void {
    const headers = {
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-NearLimit': 'true',
      'X-RateLimit-Reset': new Date(Date.now() + seconds * 1000).toISOString(),
      'RateLimit-Reason': 'jira-burst-based',
    };
    const body = { errorMessages: ['Rate limit exceeded.'], errors: {} };
    const match = {
      times: options.times ?? 1,
      match: (r: { method: string; path: string }) => r.method === method && r.path.startsWith(path),
    };
    if (options.withRetryAfter === false)
      this.server.faults.add({ kind: 'status', status: 429, body, headers }, match);
    else this.server.faults.add({ kind: 'rate-limit', retryAfterSeconds: seconds, body, headers }, match);
  }

  private authed(req: StandInRequest, run: (user: JiraUser) => StandInResponse): StandInResponse {
    const basic = credential(req, 'Basic');
    if (!basic)
      return error(401, ['You are not authenticated. Authentication required to perform this operation.']);
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const [email, token] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    const user = [...this.users.values()].find((u) => u.email === email && u.tokens.has(token));
    return user && colon > 0
      ? run(user)
      : error(401, ['Client must be authenticated to access this resource.']);
  }

  private mayBrowse(user: JiraUser, project: string): boolean {
    return this.projects.get(project)?.has(user.accountId) ?? false;
  }

  private withIssue(
    req: StandInRequest,
    run: (user: JiraUser, issue: JiraIssueRec) => StandInResponse,
  ): StandInResponse {
    return this.authed(req, (user) => {
      const key = decodeURIComponent(req.params.key!);
      const issue = this.issues.find((i) => (i.key === key || i.id === key) && !i.deleted);
      return issue && this.mayBrowse(user, issue.project) ? run(user, issue) : NO_ISSUE();
    });
  }

  private create(user: JiraUser, req: StandInRequest): StandInResponse {
    const fields = ((req.body ?? {}) as { fields?: Record<string, unknown> }).fields ?? {};
    const errors: Record<string, string> = {};
    const project = (fields.project as { key?: unknown } | undefined)?.key;
    if (typeof project !== 'string' || !this.projects.has(project) || !this.mayBrowse(user, project))
      errors.project = 'Specify a valid project ID or key';
    const type = (fields.issuetype as { name?: unknown } | undefined)?.name;
    if (typeof type !== 'string' || !ISSUE_TYPES.includes(type)) errors.issuetype = 'Specify an issue type';
    if (typeof fields.summary !== 'string' || fields.summary.trim() === '')
      errors.summary = 'You must specify a summary of the issue.';
    else if (fields.summary.length > 255) errors.summary = 'Summary must be less than 255 characters.';
    if (fields.description !== undefined && !isAdf(fields.description))
      errors.description =
        'Operation value must be an Atlassian Document (see the Atlassian Document Format)';
    const labels = Array.isArray(fields.labels) ? fields.labels.map(String) : [];
    const spaced = labels.find((l) => /\s/.test(l));
    if (spaced) errors.labels = `The label '${spaced}' contains spaces which is invalid.`;
    if (Object.keys(errors).length > 0) return error(400, [], errors);
    const issue = this.open(user, {
      project: project as string,
      summary: fields.summary as string,
      labels,
      issueType: type as string,
    });
    issue.description = fields.description ?? null;
    return {
      status: 201,
      body: { id: issue.id, key: issue.key, self: `${this.url}/rest/api/3/issue/${issue.id}` },
    };
  }

  private search(user: JiraUser, req: StandInRequest): StandInResponse {
    const body = (req.body ?? {}) as {
      jql?: unknown;
      maxResults?: unknown;
      nextPageToken?: unknown;
      fields?: unknown;
    };
    if (typeof body.jql !== 'string') return error(400, ['The JQL query is required.']);
    const query = parseJql(body.jql);
    if (typeof query === 'string') return error(400, [query]);
    const matches = (issue: JiraIssueRec, { field, value }: { field: string; value: string }) => {
      if (field === 'project') return issue.project === value;
      if (field === 'labels') return issue.labels.includes(value);
      if (field === 'key') return issue.key === value;
      if (field === 'status') return issue.status.name.toLowerCase() === value.toLowerCase();
      return (value === 'currentUser()' ? user.accountId : value) === issue.creator.accountId;
    };
    const found = this.issues
      .filter(
        (i) => !i.deleted && this.mayBrowse(user, i.project) && query.clauses.every((c) => matches(i, c)),
      )
      .sort((a, b) => (query.order === 'ASC' ? 1 : -1) * (Number(a.id) - Number(b.id)));
    const start =
      typeof body.nextPageToken === 'string'
        ? Number(Buffer.from(body.nextPageToken, 'base64url').toString())
        : 0;
    if (!Number.isInteger(start) || start < 0) return error(400, ['The nextPageToken is invalid.']);
    const size = Math.min(this.pageLimit, Math.max(1, Number(body.maxResults ?? 50)));
    const wanted = Array.isArray(body.fields) ? body.fields.map(String) : [];
    const page = found.slice(start, start + size).map((i) => {
      const view = this.issueView(i);
      const fields = Object.fromEntries(Object.entries(view.fields).filter(([f]) => wanted.includes(f)));
      return { id: view.id, key: view.key, self: view.self, fields };
    });
    const isLast = start + size >= found.length;
    return {
      body: {
        issues: page,
        isLast,
        ...(!isLast && { nextPageToken: Buffer.from(String(start + size)).toString('base64url') }),
      },
    };
  }

  /** A PageBean (`startAt`, `maxResults`, `total`, `isLast`, and the items under `field`). */
  private pageBean(req: StandInRequest, field: string, items: unknown[]): StandInResponse {
    const startAt = Math.max(0, Number(req.query.get('startAt') ?? 0) || 0);
    const maxResults = Math.min(this.pageLimit, Math.max(1, Number(req.query.get('maxResults') ?? 50) || 50));
    const values = items.slice(startAt, startAt + maxResults);
    return {
      body: {
        startAt,
        maxResults,
        total: items.length,
        isLast: startAt + maxResults >= items.length,
        [field]: values,
      },
    };
  }

  private transitionsOf(issue: JiraIssueRec) {
    return JIRA_STATUSES.filter((s) => s.id !== issue.status.id).map((s) => ({
      id: String(Number(s.id) - 9979),
      name: s.name,
      to: s,
    }));
  }

  private issueView(issue: JiraIssueRec) {
    return {
      id: issue.id,
      key: issue.key,
      self: `${this.url}/rest/api/3/issue/${issue.id}`,
      fields: {
        summary: issue.summary,
        status: statusView(issue.status),
        creator: userView(issue.creator, this.url),
        created: issue.created,
        labels: issue.labels,
        project: { key: issue.project },
        issuetype: { name: issue.issueType },
        description: issue.description,
      } as Record<string, unknown>,
    };
  }

  private commentView(c: JiraCommentRec) {
    return {
      id: c.id,
      author: userView(c.author, this.url),
      body: c.body,
      created: c.created,
      updated: c.created,
    };
  }

  /** Jira's times: `2026-06-07T10:00:00.000+0000`, one millisecond later at least per change. */
  private tick(): string {
    this.clock = Math.max(this.clock + 1, Date.now());
    return new Date(this.clock).toISOString().replace('Z', '+0000');
  }
}

function userView(user: JiraUser, base: string) {
  return {
    self: `${base}/rest/api/3/user?accountId=${user.accountId}`,
    accountId: user.accountId,
    accountType: user.accountType,
    displayName: user.displayName,
    active: true,
  };
}

function statusView(status: JiraStatusDef) {
  return {
    id: status.id,
    name: status.name,
    statusCategory: { key: status.category, name: CATEGORY_NAMES[status.category] },
  };
}

function isAdf(value: unknown): boolean {
  const doc = value as { type?: unknown; version?: unknown; content?: unknown } | null;
  return !!doc && doc.type === 'doc' && doc.version === 1 && Array.isArray(doc.content);
}
