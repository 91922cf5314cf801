import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError, upstreamVariable } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { withHint } from '../../shared/upstream-hints.js';
import { nextPageLink } from '../../shared/next-page-link.js';
import { replyFields } from '../../shared/reply-fields.js';
import { GITHUB_FAMILY, type GithubAccount } from './github-settings.js';

/** A user as issues and comments show it: `type` is `Bot` for apps' accounts (`name[bot]`). */
export interface GithubUser {
  login: string;
  type?: string;
}

/** The parts of an issue the approval reader reads (https://docs.github.com/rest/issues/issues). */
export interface GithubIssue {
  number: number;
  html_url: string;
  state: 'open' | 'closed';
  body: string | null;
  user: GithubUser;
  closed_by?: GithubUser | null;
  created_at: string;
  updated_at: string;
  pull_request?: unknown;
}

/** https://docs.github.com/rest/issues/comments */
export interface GithubComment {
  id: number;
  body: string;
  user: GithubUser;
  created_at: string;
  updated_at: string;
}

/** What GitHub answers an installation token on an endpoint for users (GET /user). */
const INTEGRATION = /Resource not accessible by integration/;

/** Largest page GitHub's list endpoints hand out. */
const PER_PAGE = 100;
/** Pages followed at most: 10,000 comments or team members, a bound on what one read costs. */
const MAX_PAGES = 100;

/** GitHub's error body: `{message, documentation_url}` (plus `errors` for a 422). */
function describe(data: unknown): string | undefined {
  const d = data as { message?: unknown } | undefined;
  return typeof d?.message === 'string' ? d.message : undefined;
}

/**
 * A rate limit GitHub answers with 403 (primary: `x-ratelimit-remaining: 0`; secondary: `retry-after`) is
 * transient like a 429 (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api).
 */
function rateLimited(response: AxiosResponse): boolean {
  const headers = response.headers ?? {};
  return (
    response.status === 403 &&
    (headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined)
  );
}

/** The REST API of GitHub (or GitHub Enterprise Server) with one account's token. */
export class GithubApi {
  private readonly http: AxiosInstance;
  private me?: string;
  private readonly base: string;

  constructor(
    readonly account: string,
    config: GithubAccount,
    timeoutMs: number,
  ) {
    this.base = config.apiUrl;
    this.http = createUpstreamClient({
      upstream: 'github',
      baseURL: config.apiUrl,
      headers: {
        Authorization: `Bearer ${config.token}`,
        Accept: 'application/vnd.github+json',
        'X-GitHub-Api-Version': '2022-11-28',
        // GitHub refuses requests without a User-Agent.
        'User-Agent': 'argo-executor-plugins-chat-notifier',
      },
      timeoutMs,
      describe: (response) => describe(response.data),
      transient: rateLimited,
    });
  }

  private get hints() {
    const variable = upstreamVariable(GITHUB_FAMILY, this.account, 'TOKEN');
    return {
      401: `the token of account "${this.account}" is invalid, expired or revoked: the admin renews ${variable}`,
      403: `the token of account "${this.account}" lacks a permission: Issues (read and write) on the repository, Members (read) for teams`,
    };
  }

  private async call<T>(run: () => Promise<AxiosResponse<T>>, notFound?: string): Promise<AxiosResponse<T>> {
    try {
      return await run();
    } catch (err) {
      throw withHint(err, { ...this.hints, ...(notFound && { 404: notFound }) });
    }
  }

  /**
   * The token's own login, lower-cased, read once: the author of every issue it opens. A person's token reads
   * it with GET /user. A GitHub App's installation token is refused there (403 "Resource not accessible by
   * integration") and GET /app wants the App's JWT, so it asks GraphQL's `viewer`, which answers the app's bot
   * account `<app-slug>[bot]`: a name no user can take (logins have no brackets).
   */
  async ownLogin(signal: AbortSignal): Promise<string> {
    if (this.me === undefined) {
      try {
        const { data } = await this.call(() => this.http.get('/user', { signal }));
        this.me = replyFields('github', 'GET /user', data, { login: 'string' }).login.toLowerCase();
      } catch (err) {
        if (!(err instanceof UpstreamError && err.status === 403 && INTEGRATION.test(err.message))) throw err;
        this.me = await this.viewerLogin(signal);
      }
    }
    return this.me;
  }

  /** GraphQL's `viewer { login }` (https://docs.github.com/graphql), at /graphql, or /api/graphql on a server. */
  private async viewerLogin(signal: AbortSignal): Promise<string> {
    // Relative to the REST base (the client follows no absolute URL): https://<server>/api/v3/../graphql.
    const url = this.base.endsWith('/api/v3') ? '/../graphql' : '/graphql';
    const { data } = await this.call<unknown>(() =>
      this.http.post(url, { query: 'query { viewer { login } }' }, { signal }),
    );
    const reply = data as { data?: { viewer?: unknown }; errors?: Array<{ message?: unknown }> } | undefined;
    // GraphQL answers its errors with 200.
    if (reply?.errors?.length)
      throw UpstreamError.permanent(
        `github: POST /graphql viewer: ${reply.errors.map((e) => String(e.message)).join('; ')}`,
      );
    const viewer = reply?.data?.viewer;
    return replyFields('github', 'POST /graphql viewer', viewer, { login: 'string' }).login.toLowerCase();
  }

  async createIssue(
    repo: string,
    issue: { title: string; body: string; labels: string[] },
    signal: AbortSignal,
  ): Promise<GithubIssue> {
    const { data } = await this.call(
      () => this.http.post(`/repos/${repo}/issues`, issue, { signal }),
      `repository ${repo} does not exist or the token cannot see it`,
    );
    return issueOf(`POST /repos/${repo}/issues`, data);
  }

  /** The newest issues (not pull requests) with `label`, open or closed: one page of 100. */
  async labelled(repo: string, label: string, signal: AbortSignal): Promise<GithubIssue[]> {
    const { data } = await this.call<unknown>(
      () =>
        this.http.get(`/repos/${repo}/issues`, {
          params: { labels: label, state: 'all', sort: 'created', direction: 'desc', per_page: PER_PAGE },
          signal,
        }),
      `repository ${repo} does not exist or the token cannot see it`,
    );
    return listOf(`GET /repos/${repo}/issues`, data).filter(
      (i): i is GithubIssue =>
        typeof (i as GithubIssue)?.number === 'number' && !(i as GithubIssue).pull_request,
    );
  }

  /** The issue; 404 (deleted, or no access), 410 (deleted) and 301 (transferred) are the caller's to read. */
  async issue(repo: string, number: string, signal: AbortSignal): Promise<GithubIssue> {
    const { data } = await this.call(() => this.http.get(`/repos/${repo}/issues/${number}`, { signal }));
    return issueOf(`GET /repos/${repo}/issues/${number}`, data);
  }

  async closeIssue(repo: string, number: string, signal: AbortSignal): Promise<void> {
    await this.call(() =>
      this.http.patch(
        `/repos/${repo}/issues/${number}`,
        { state: 'closed', state_reason: 'completed' },
        { signal },
      ),
    );
  }

  async comment(repo: string, number: string, body: string, signal: AbortSignal): Promise<void> {
    await this.call(() => this.http.post(`/repos/${repo}/issues/${number}/comments`, { body }, { signal }));
  }

  /** Every comment of an issue, oldest first, following the Link header. */
  async comments(repo: string, number: string, signal: AbortSignal): Promise<GithubComment[]> {
    const all = await this.pages(`/repos/${repo}/issues/${number}/comments`, signal);
    return all.filter(
      (c): c is GithubComment =>
        typeof (c as GithubComment)?.id === 'number' && typeof (c as GithubComment).user?.login === 'string',
    );
  }

  /** The logins of a team's members (its child teams' members included, as GitHub lists them). */
  async teamMembers(org: string, slug: string, signal: AbortSignal): Promise<string[]> {
    const all = await this.pages(
      `/orgs/${org}/teams/${slug}/members`,
      signal,
      `no team ${org}/${slug} that the token can see (it needs Members: read on the organisation)`,
    );
    return all.map((u) => (u as GithubUser)?.login).filter((l): l is string => typeof l === 'string');
  }

  /** A list endpoint's every page: `per_page=100`, then each `rel="next"` link (on the same API only). */
  private async pages(path: string, signal: AbortSignal, notFound?: string): Promise<unknown[]> {
    const items: unknown[] = [];
    let url: string | undefined = `${path}?per_page=${PER_PAGE}`;
    for (let page = 0; url; page++) {
      if (page === MAX_PAGES)
        throw UpstreamError.permanent(`github: GET ${path}: more than ${MAX_PAGES} pages of ${PER_PAGE}`);
      const current: string = url;
      const response = await this.call<unknown>(() => this.http.get(current, { signal }), notFound);
      items.push(...listOf(`GET ${path}`, response.data));
      url = nextPageLink('github', path, this.base, response.headers.link);
    }
    return items;
  }
}

function listOf(request: string, data: unknown): unknown[] {
  if (!Array.isArray(data)) throw UpstreamError.permanent(`github: ${request}: no list in the reply`);
  return data;
}

function issueOf(request: string, data: unknown): GithubIssue {
  replyFields('github', request, data, {
    number: 'number',
    html_url: 'string',
    state: 'string',
    created_at: 'string',
  });
  const issue = data as GithubIssue;
  if (typeof issue.user?.login !== 'string')
    throw UpstreamError.permanent(`github: ${request}: no user in the reply`);
  return issue;
}
