import { AxiosError, type AxiosInstance } from 'axios';
import { formatDuration } from '@app/contract';
import { UpstreamError } from '@app/plugin-kit';
import { errorDetail } from '@app/plugin-kit/upstream/error-detail.js';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { GitHubServer } from './github-settings.js';
import { rateLimitWaitMs } from './github-rate-limit.js';

export const GITHUB_API_VERSION = '2022-11-28';
export const USER_AGENT = 'argo-executor-plugin-build-trigger';

/**
 * Axios for one GitHub (or GHES) API: the required headers, and rate limits (403/429 with
 * `x-ratelimit-remaining: 0`, `retry-after` or a secondary-limit message) turned into transient errors that
 * carry how long to wait, so the node stays Running with a longer requeue instead of failing.
 */
export function createGitHubHttp(server: GitHubServer, timeoutMs: number): AxiosInstance {
  const message = (data: unknown): string => errorDetail(data) ?? '';
  const http = createUpstreamClient({
    upstream: 'github',
    baseURL: server.apiUrl,
    headers: {
      Authorization: `Bearer ${server.token}`,
      Accept: 'application/vnd.github+json',
      'X-GitHub-Api-Version': GITHUB_API_VERSION,
      'User-Agent': USER_AGENT,
    },
    timeoutMs,
    transient: (res) =>
      rateLimitWaitMs(res.status, res.headers as Record<string, unknown>, message(res.data)) !== undefined,
  });
  // Runs after the kit's interceptor, which has already made the error an UpstreamError.
  http.interceptors.response.use(undefined, (err: unknown) => {
    if (!(err instanceof UpstreamError) || !(err.cause instanceof AxiosError) || !err.cause.response)
      return Promise.reject(err);
    const res = err.cause.response;
    const wait = rateLimitWaitMs(res.status, res.headers as Record<string, unknown>, message(res.data));
    if (wait === undefined) return Promise.reject(err);
    return Promise.reject(
      UpstreamError.transient(
        `${err.message} (rate limited; GitHub asks to wait ${formatDuration(Math.round(wait / 1000) * 1000)})`,
        {
          status: res.status,
          retryAfterMs: wait,
          cause: err.cause,
        },
      ),
    );
  });
  return http;
}

/** Permanent GitHub errors phrased for the node message; transient ones are left to the kit. */
export function describeGitHubError(err: unknown, action: string): unknown {
  if (!(err instanceof UpstreamError) || err.transient || err.status === undefined) return err;
  const detail = err.cause instanceof AxiosError ? errorDetail(err.cause.response?.data) : undefined;
  const suffix = detail ? `: ${detail}` : '';
  const hints: Record<number, string> = {
    401: `github: authentication failed (401)${suffix}`,
    403: `github: ${action}: forbidden (403)${suffix} (the token needs Actions: write to dispatch and cancel, Actions: read to poll)`,
    404: `github: ${action}: not found (404)${suffix} (check the repository and workflow, and that the token can see them)`,
  };
  const message = hints[err.status] ?? `github: ${action} (${err.status})${suffix}`;
  return new UpstreamError('permanent', message, { status: err.status, cause: err.cause });
}
