import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError, upstreamVariable } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { withHint } from '../../shared/upstream-hints.js';
import { replyFields } from '../../shared/reply-fields.js';
import { JIRA_FAMILY, type JiraSite } from './jira-settings.js';

/** An account as Jira Cloud shows it: `accountType` is `app` for apps' accounts. */
export interface JiraUser {
  accountId: string;
  accountType?: string;
}

export interface JiraStatus {
  id: string;
  name: string;
  statusCategory?: { key: string };
}

/** The parts of an issue the gate reads (GET /rest/api/3/issue/{key}). */
export interface JiraIssue {
  id: string;
  key: string;
  fields: { status?: JiraStatus; creator?: JiraUser; created?: string; labels?: string[] };
}

/** One entry of an issue's changelog: who changed which fields when. */
export interface JiraChange {
  author?: JiraUser;
  created: string;
  items: Array<{ fieldId?: string; field?: string; to?: string | null; toString?: string | null }>;
}

/** A comment; its body is Atlassian Document Format (ADF). */
export interface JiraComment {
  id: string;
  author?: JiraUser;
  body?: unknown;
  created: string;
}

/** Largest page the gate asks for; Jira may hand out fewer. */
const PAGE = 100;
/** Pages followed at most: a bound on what one read costs. */
const MAX_PAGES = 20;

/** Jira's error body: `{errorMessages: [...], errors: {field: message}}`. */
function describe(data: unknown): string | undefined {
  const d = data as { errorMessages?: unknown; errors?: unknown } | undefined;
  const messages = Array.isArray(d?.errorMessages) ? d.errorMessages.map(String) : [];
  const fields =
    d?.errors && typeof d.errors === 'object'
      ? Object.entries(d.errors as Record<string, unknown>).map(([f, m]) => `${f}: ${String(m)}`)
      : [];
  const all = [...messages, ...fields];
  return all.length > 0 ? all.join('; ') : undefined;
}

/**
 * How long a 429 says to wait: `Retry-After` (seconds), else `X-RateLimit-Reset` (an ISO 8601 time), as Jira
 * Cloud's rate-limiting reference documents them; undefined when neither is given.
 */
export function jiraRetryAfterMs(headers: Record<string, unknown>, now = Date.now()): number | undefined {
  const seconds = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const reset = Date.parse(String(headers['x-ratelimit-reset'] ?? ''));
  return Number.isFinite(reset) ? Math.max(0, reset - now) : undefined;
}

/** Jira Cloud's REST API v3 with one site's account (basic auth: email and API token). */
export class JiraApi {
  private readonly http: AxiosInstance;
  private me?: string;
  private readonly statuses = new Map<string, JiraStatus>();

  constructor(
    readonly site: string,
    config: JiraSite,
    timeoutMs: number,
  ) {
    this.http = createUpstreamClient({
      upstream: 'jira',
      baseURL: config.url,
      auth: { username: config.email, password: config.apiToken },
      headers: { Accept: 'application/json' },
      timeoutMs,
      describe: (response) => describe(response.data),
    });
  }

  private get hints() {
    const variable = upstreamVariable(JIRA_FAMILY, this.site, 'API_TOKEN');
    return {
      401: `the email or API token of Jira site "${this.site}" is wrong or revoked: the admin renews ${variable}`,
      403: `the account of Jira site "${this.site}" lacks a permission: Browse projects, Create issues, Add comments`,
    };
  }

  private async call<T>(run: () => Promise<AxiosResponse<T>>, notFound?: string): Promise<AxiosResponse<T>> {
    try {
      return await run();
    } catch (err) {
      throw withHint(withResetTime(err), { ...this.hints, ...(notFound && { 404: notFound }) });
    }
  }

  /** The account's own id (GET /rest/api/3/myself), read once: the creator of every issue it opens. */
  async ownAccountId(signal: AbortSignal): Promise<string> {
    if (this.me === undefined) {
      const { data } = await this.call(() => this.http.get('/rest/api/3/myself', { signal }));
      this.me = replyFields('jira', 'GET /rest/api/3/myself', data, { accountId: 'string' }).accountId;
    }
    return this.me;
  }

  async createIssue(
    fields: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<{ id: string; key: string }> {
    const { data } = await this.call(() => this.http.post('/rest/api/3/issue', { fields }, { signal }));
    return replyFields('jira', 'POST /rest/api/3/issue', data, { id: 'string', key: 'string' });
  }

  async issue(key: string, signal: AbortSignal): Promise<JiraIssue> {
    const { data } = await this.call(
      () =>
        this.http.get(`/rest/api/3/issue/${encodeURIComponent(key)}`, {
          params: { fields: 'status,creator,created,labels' },
          signal,
        }),
      `issue ${key} does not exist or the account cannot see it`,
    );
    replyFields('jira', `GET /rest/api/3/issue/${key}`, data, { id: 'string', key: 'string' });
    return data as JiraIssue;
  }

  /** Every issue `jql` finds (POST /rest/api/3/search/jql, paged by nextPageToken). */
  async search(jql: string, signal: AbortSignal): Promise<JiraIssue[]> {
    const issues: JiraIssue[] = [];
    let nextPageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = { jql, fields: ['creator', 'created', 'status'], maxResults: PAGE, nextPageToken };
      const { data } = await this.call(() => this.http.post('/rest/api/3/search/jql', body, { signal }));
      const reply = data as { issues?: unknown; isLast?: unknown; nextPageToken?: unknown };
      if (!Array.isArray(reply?.issues))
        throw UpstreamError.permanent('jira: POST /rest/api/3/search/jql: no issues in the reply');
      issues.push(...(reply.issues as JiraIssue[]));
      if (reply.isLast !== false || typeof reply.nextPageToken !== 'string') return issues;
      nextPageToken = reply.nextPageToken;
    }
    return issues;
  }

  /** Every entry of the issue's changelog, oldest first. */
  changelog(key: string, signal: AbortSignal): Promise<JiraChange[]> {
    return this.pages<JiraChange>(`/rest/api/3/issue/${encodeURIComponent(key)}/changelog`, 'values', signal);
  }

  /** Every comment of the issue, oldest first. */
  comments(key: string, signal: AbortSignal): Promise<JiraComment[]> {
    return this.pages<JiraComment>(
      `/rest/api/3/issue/${encodeURIComponent(key)}/comment`,
      'comments',
      signal,
    );
  }

  async comment(key: string, body: unknown, signal: AbortSignal): Promise<JiraComment> {
    const { data } = await this.call(() =>
      this.http.post(`/rest/api/3/issue/${encodeURIComponent(key)}/comment`, { body }, { signal }),
    );
    replyFields('jira', `POST /rest/api/3/issue/${key}/comment`, data, { id: 'string', created: 'string' });
    return data as JiraComment;
  }

  /** A status by id (GET /rest/api/3/status/{id}), read once: its category. */
  async status(id: string, signal: AbortSignal): Promise<JiraStatus> {
    let status = this.statuses.get(id);
    if (!status) {
      const { data } = await this.call(() =>
        this.http.get(`/rest/api/3/status/${encodeURIComponent(id)}`, { signal }),
      );
      replyFields('jira', `GET /rest/api/3/status/${id}`, data, { id: 'string', name: 'string' });
      status = data as JiraStatus;
      this.statuses.set(id, status);
    }
    return status;
  }

  /** A startAt/maxResults list (Jira's PageBean): until `isLast`, or `startAt + its items >= total`. */
  private async pages<T>(path: string, field: string, signal: AbortSignal): Promise<T[]> {
    const items: T[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data } = await this.call(
        () => this.http.get(path, { params: { startAt: items.length, maxResults: PAGE }, signal }),
        'the issue does not exist or the account cannot see it',
      );
      const reply = data as Record<string, unknown>;
      const list = reply?.[field];
      if (!Array.isArray(list)) throw UpstreamError.permanent(`jira: GET ${path}: no ${field} in the reply`);
      items.push(...(list as T[]));
      const total = typeof reply.total === 'number' ? reply.total : undefined;
      if (list.length === 0 || reply.isLast === true || (total !== undefined && items.length >= total))
        return items;
    }
    return items;
  }
}

/** A 429 without Retry-After waits until its X-RateLimit-Reset. */
function withResetTime(err: unknown): unknown {
  if (!(err instanceof UpstreamError) || err.status !== 429 || err.retryAfterMs !== undefined) return err;
  const headers = (err.cause as { response?: AxiosResponse } | undefined)?.response?.headers ?? {};
  const retryAfterMs = jiraRetryAfterMs(headers as Record<string, unknown>);
  return retryAfterMs === undefined
    ? err
    : new UpstreamError(err.kind, err.message, { status: 429, retryAfterMs, cause: err.cause });
}
