import { randomBytes } from 'node:crypto';
import { credential, ProviderStandIn, type StandInRequest, type StandInResponse } from '@app/local-agent';
import { ApprovalScript } from '../approval-script.js';

export interface GhUser {
  login: string;
  id: number;
  type: 'User' | 'Bot';
  /** Tokens that act as this user (a person's or an app's). */
  tokens: Set<string>;
  /** The GitHub App this account is the bot of (`<slug>[bot]`): what it writes says so. */
  app?: GhApp;
}

export interface GhApp {
  id: number;
  slug: string;
  name: string;
}

/** An installation access token: the app's bot, on the installation's repositories only, for an hour. */
interface Installation {
  bot: GhUser;
  repositories: Set<string>;
  expiresAt: number;
}

/** Who a request's token acts as. */
interface Caller {
  user: GhUser;
  installation?: Installation;
}

export interface GhComment {
  id: number;
  user: GhUser;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface GhIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  user: GhUser;
  state: 'open' | 'closed';
  state_reason: string | null;
  closed_by: GhUser | null;
  created_at: string;
  updated_at: string;
  comments: GhComment[];
  /** Deleted (410 Gone) or transferred (301 to its new place). */
  gone?: 'deleted' | 'transferred';
}

export interface GhRepository {
  fullName: string;
  /** Logins with write access: they may open issues with labels, comment, close. */
  writers: Set<string>;
  issues: GhIssue[];
}

const DOCS = 'https://docs.github.com/rest';

/** GitHub's answer to an installation token on an endpoint for users only, or outside the app's permissions. */
const NOT_FOR_INTEGRATIONS = 'Resource not accessible by integration';

/** How long GitHub's installation access tokens live. */
const INSTALLATION_TOKEN_MS = 60 * 60 * 1000;

/** GitHub's error body. */
const error = (status: number, message: string, extra: object = {}): StandInResponse => ({
  status,
  body: { message, documentation_url: DOCS, ...extra },
});

/** Default and largest `per_page` of GitHub's list endpoints. */
const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;

/**
 * GitHub's REST API (https://docs.github.com/rest) for the calls an approval gate makes: open, list (by label,
 * newest first), get, close an issue; list and add its comments; list a team's members. A token goes in
 * `Authorization: Bearer` (or `token`); without one 401 "Requires authentication", a wrong one 401 "Bad
 * credentials"; a repository or team the token's user cannot see is 404 "Not Found"; a write without write
 * access 403; a deleted issue 410 "This issue was deleted"; a transferred one 301. Errors are
 * `{message, documentation_url}`. Lists page with `page`/`per_page` (≤ 100, default 30) and a Link header.
 * A GitHub App (`addApp`) acts through installation tokens (`ghs_…`, an hour, 401 once expired) on its
 * installation's repositories only (others 404): GET /user refuses them with 403 "Resource not accessible by
 * integration", GraphQL's `viewer { login }` (POST /graphql) answers `<slug>[bot]`, and what the app writes
 * carries `performed_via_github_app`.
 * Times are whole seconds, as GitHub's: the stand-in's clock follows the real time and moves at least one second
 * per change, so an edit is always later than the creation. A scripted approver (`script`) comments, edits, deletes after the issue has been read
 * (GET …/issues/{n}) a number of times.
 */
export class GithubStandIn extends ProviderStandIn {
  readonly users = new Map<string, GhUser>();
  readonly repositories = new Map<string, GhRepository>();
  /** `org/slug` → member logins. */
  readonly teams = new Map<string, string[]>();
  readonly script = new ApprovalScript();
  private clock = 0;
  private ids = 1000;
  private readonly installations = new Map<string, Installation>();

  constructor() {
    super('github', () => error(404, 'Not Found'));
    this.route('GET', '/repos/:o/:r/issues', (req) =>
      this.inRepo(req, 'read', (u, repo) => this.listIssues(repo, req)),
    )
      .route('POST', '/repos/:o/:r/issues', (req) =>
        this.inRepo(req, 'write', (u, repo) => this.openIssue(u, repo, req)),
      )
      .route('GET', '/repos/:o/:r/issues/:n', (req) =>
        this.inRepo(req, 'read', (_u, repo) => {
          this.script.read(`${repo.fullName}#${req.params.n}`);
          return this.withIssue(repo, req, (issue) => ({ body: this.issueView(repo, issue) }));
        }),
      )
      .route('PATCH', '/repos/:o/:r/issues/:n', (req) =>
        this.inRepo(req, 'write', (u, repo) =>
          this.withIssue(repo, req, (issue) => this.updateIssue(u, repo, issue, req)),
        ),
      )
      .route('GET', '/repos/:o/:r/issues/:n/comments', (req) =>
        this.inRepo(req, 'read', (_u, repo) =>
          this.withIssue(repo, req, (issue) => this.page(req, issue.comments.map(commentView))),
        ),
      )
      .route('POST', '/repos/:o/:r/issues/:n/comments', (req) =>
        this.inRepo(req, 'read', (u, repo) =>
          this.withIssue(repo, req, (issue) => this.addComment(u, issue, req)),
        ),
      )
      .route('GET', '/user', (req) =>
        this.authed(req, (user, installation) =>
          installation
            ? error(403, NOT_FOR_INTEGRATIONS, {
                documentation_url: `${DOCS}/users/users#get-the-authenticated-user`,
              })
            : { body: userView(user) },
        ),
      )
      .route('POST', '/graphql', (req) => this.graphql(req))
      .route('GET', '/orgs/:org/teams/:slug/members', (req) =>
        this.authed(req, () => {
          const members = this.teams.get(`${req.params.org}/${req.params.slug}`.toLowerCase());
          if (!members) return error(404, 'Not Found');
          return this.page(
            req,
            members.map((login) => userView(this.users.get(login)!)),
          );
        }),
      );
  }

  addUser(login: string, options: { type?: GhUser['type']; token?: string } = {}): GhUser {
    const user: GhUser = {
      login,
      id: this.ids++,
      type: options.type ?? 'User',
      tokens: new Set(options.token ? [options.token] : []),
    };
    this.users.set(login.toLowerCase(), user);
    return user;
  }

  /** A GitHub App: its bot account `<slug>[bot]`, which acts through installationToken's tokens. */
  addApp(slug: string, name = slug): GhUser {
    const bot = this.addUser(`${slug}[bot]`, { type: 'Bot' });
    bot.app = { id: this.ids++, slug, name };
    return bot;
  }

  /** An installation access token of the app, on these repositories, expiring as GitHub's do (after an hour). */
  installationToken(bot: GhUser, repositories: GhRepository[], lifetimeMs = INSTALLATION_TOKEN_MS): string {
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    this.installations.set(token, {
      bot,
      repositories: new Set(repositories.map((r) => r.fullName.toLowerCase())),
      expiresAt: Date.now() + lifetimeMs,
    });
    return token;
  }

  addRepository(fullName: string, writers: GhUser[]): GhRepository {
    const repo = { fullName, writers: new Set(writers.map((w) => w.login.toLowerCase())), issues: [] };
    this.repositories.set(fullName.toLowerCase(), repo);
    return repo;
  }

  addTeam(org: string, slug: string, members: GhUser[]): void {
    this.teams.set(
      `${org}/${slug}`.toLowerCase(),
      members.map((m) => m.login.toLowerCase()),
    );
  }

  issue(repo: GhRepository, number: number | string): GhIssue {
    return repo.issues.find((i) => i.number === Number(number))!;
  }

  /** `user` comments on the issue. */
  comment(issue: GhIssue, user: GhUser, body: string): GhComment {
    const at = this.tick();
    const comment = { id: this.ids++, user, body, created_at: at, updated_at: at };
    issue.comments.push(comment);
    issue.updated_at = at;
    return comment;
  }

  /** The comment's author edits it. */
  editComment(comment: GhComment, body: string): void {
    comment.body = body;
    comment.updated_at = this.tick();
  }

  deleteComment(issue: GhIssue, comment: GhComment): void {
    issue.comments.splice(issue.comments.indexOf(comment), 1);
  }

  /** Someone with write access edits the issue's body. */
  editBody(issue: GhIssue, body: string): void {
    issue.body = body;
    issue.updated_at = this.tick();
  }

  closeIssue(issue: GhIssue, by: GhUser): void {
    issue.state = 'closed';
    issue.state_reason = 'completed';
    issue.closed_by = by;
    issue.updated_at = this.tick();
  }

  /** An admin deletes the issue (410 from then on) or transfers it to another repository (301). */
  remove(issue: GhIssue, how: 'deleted' | 'transferred' = 'deleted'): void {
    issue.gone = how;
  }

  /** The next `times` calls of `method` on a path starting with `path` hit the rate limit, as GitHub answers it. */
  rateLimit(
    method: string,
    path: string,
    retryAfterSeconds: number,
    times = 1,
    status: 403 | 429 = 429,
  ): void {
    this.server.faults.add(
      {
        kind: 'rate-limit',
        status,
        retryAfterSeconds,
        body: {
          message: 'API rate limit exceeded for user ID 1000.',
          documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api`,
        },
        headers: {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-used': '5000',
          'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + retryAfterSeconds),
          'x-ratelimit-resource': 'core',
        },
      },
      { times, match: (r) => r.method === method && r.path.startsWith(path) },
    );
  }

  private authed(
    req: StandInRequest,
    run: (user: GhUser, installation?: Installation) => StandInResponse,
  ): StandInResponse {
    const caller = this.caller(req);
    return 'user' in caller ? run(caller.user, caller.installation) : caller;
  }

  private caller(req: StandInRequest): Caller | StandInResponse {
    const token = credential(req, 'Bearer') ?? credential(req, 'token');
    if (!token) return error(401, 'Requires authentication');
    const installation = this.installations.get(token);
    if (installation)
      return installation.expiresAt > Date.now()
        ? { user: installation.bot, installation }
        : error(401, 'Bad credentials');
    const user = [...this.users.values()].find((u) => u.tokens.has(token));
    return user ? { user } : error(401, 'Bad credentials');
  }

  /** GitHub's GraphQL API, for the one query a client asks of it here: who the token is (`viewer { login }`). */
  private graphql(req: StandInRequest): StandInResponse {
    const caller = this.caller(req);
    if (!('user' in caller)) return caller;
    const query = (req.body as { query?: unknown } | undefined)?.query;
    if (typeof query !== 'string' || !/^\s*(?:query\s*)?\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*$/.test(query))
      return {
        body: { errors: [{ message: 'the stand-in answers only the query { viewer { login } }' }] },
      };
    return { body: { data: { viewer: { login: caller.user.login } } } };
  }

  /** A repository the token's user can see (any, here: all are public), and for writes one it may write to. */
  private inRepo(
    req: StandInRequest,
    need: 'read' | 'write',
    run: (user: GhUser, repo: GhRepository) => StandInResponse,
  ): StandInResponse {
    return this.authed(req, (user, installation) => {
      const name = `${req.params.o}/${req.params.r}`.toLowerCase();
      const repo = this.repositories.get(name);
      // An installation sees only its repositories; on them, the app's Issues permission (read and write).
      if (!repo || (installation && !installation.repositories.has(name))) return error(404, 'Not Found');
      if (!installation && need === 'write' && !repo.writers.has(user.login.toLowerCase()))
        return error(403, 'Resource not accessible by personal access token');
      return run(user, repo);
    });
  }

  private withIssue(
    repo: GhRepository,
    req: StandInRequest,
    run: (issue: GhIssue) => StandInResponse,
  ): StandInResponse {
    const issue = this.issue(repo, req.params.n);
    if (!issue) return error(404, 'Not Found');
    if (issue.gone === 'deleted') return error(410, 'This issue was deleted');
    if (issue.gone === 'transferred')
      return {
        status: 301,
        headers: { Location: `${this.url}/repositories/1/issues/${issue.number}` },
        body: {
          message: 'Moved Permanently',
          url: `${this.url}/repositories/1/issues/${issue.number}`,
          documentation_url: DOCS,
        },
      };
    return run(issue);
  }

  private listIssues(repo: GhRepository, req: StandInRequest): StandInResponse {
    const labels = (req.query.get('labels') ?? '').split(',').filter((l) => l !== '');
    const state = req.query.get('state') ?? 'open';
    const issues = repo.issues
      .filter(
        (i) => !i.gone && (state === 'all' || i.state === state) && labels.every((l) => i.labels.includes(l)),
      )
      .sort((a, b) => (req.query.get('direction') === 'asc' ? a.number - b.number : b.number - a.number));
    return this.page(
      req,
      issues.map((i) => this.issueView(repo, i)),
    );
  }

  private openIssue(user: GhUser, repo: GhRepository, req: StandInRequest): StandInResponse {
    const body = (req.body ?? {}) as { title?: unknown; body?: unknown; labels?: unknown };
    if (typeof body.title !== 'string' || body.title === '')
      return error(422, 'Validation Failed', {
        errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
      });
    const at = this.tick();
    const issue: GhIssue = {
      number: repo.issues.length + 1,
      title: body.title,
      body: typeof body.body === 'string' ? body.body : '',
      labels: Array.isArray(body.labels) ? body.labels.map(String) : [],
      user,
      state: 'open',
      state_reason: null,
      closed_by: null,
      created_at: at,
      updated_at: at,
      comments: [],
    };
    repo.issues.push(issue);
    return { status: 201, body: this.issueView(repo, issue) };
  }

  private updateIssue(
    user: GhUser,
    repo: GhRepository,
    issue: GhIssue,
    req: StandInRequest,
  ): StandInResponse {
    const body = (req.body ?? {}) as { state?: unknown; state_reason?: unknown; body?: unknown };
    if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed')
      return error(422, 'Validation Failed', {
        errors: [{ resource: 'Issue', code: 'invalid', field: 'state' }],
      });
    if (typeof body.body === 'string') issue.body = body.body;
    if (body.state === 'closed' && issue.state === 'open') {
      issue.state = 'closed';
      issue.closed_by = user;
      issue.state_reason = typeof body.state_reason === 'string' ? body.state_reason : 'completed';
    }
    issue.updated_at = this.tick();
    return { body: this.issueView(repo, issue) };
  }

  private addComment(user: GhUser, issue: GhIssue, req: StandInRequest): StandInResponse {
    const body = (req.body ?? {}) as { body?: unknown };
    if (typeof body.body !== 'string' || body.body === '')
      return error(422, 'Validation Failed', {
        errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }],
      });
    return { status: 201, body: commentView(this.comment(issue, user, body.body)) };
  }

  /** One page of a list, with GitHub's Link header (`next`, `last`, `prev`, `first`). */
  private page(req: StandInRequest, items: unknown[]): StandInResponse {
    const perPage = Math.min(
      MAX_PER_PAGE,
      Math.max(1, Number(req.query.get('per_page') ?? DEFAULT_PER_PAGE)),
    );
    const page = Math.max(1, Number(req.query.get('page') ?? 1));
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (p: number, rel: string) => {
      const query = new URLSearchParams(req.query);
      query.set('page', String(p));
      query.set('per_page', String(perPage));
      return `<${this.url}${req.path}?${query}>; rel="${rel}"`;
    };
    const links = [
      ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
      ...(page > 1 ? [link(page - 1, 'prev'), link(1, 'first')] : []),
    ];
    return {
      body: items.slice((page - 1) * perPage, page * perPage),
      ...(links.length > 0 && { headers: { Link: links.join(', ') } }),
    };
  }

  private issueView(repo: GhRepository, issue: GhIssue): Record<string, unknown> {
    const { comments, gone: _gone, labels, user, closed_by, ...rest } = issue;
    return {
      ...rest,
      html_url: `https://github.com/${repo.fullName}/issues/${issue.number}`,
      labels: labels.map((name) => ({ name })),
      user: userView(user),
      closed_by: closed_by && userView(closed_by),
      comments: comments.length,
      performed_via_github_app: user.app ?? null,
    };
  }

  /** GitHub's times: ISO 8601 in whole seconds, now or (changes in the same second) one second per change. */
  private tick(): string {
    this.clock = Math.max(this.clock + 1000, Math.floor(Date.now() / 1000) * 1000);
    return new Date(this.clock).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
}

function userView(user: GhUser): Record<string, unknown> {
  return { login: user.login, id: user.id, type: user.type };
}

function commentView(comment: GhComment): Record<string, unknown> {
  return { ...comment, user: userView(comment.user), performed_via_github_app: comment.user.app ?? null };
}
