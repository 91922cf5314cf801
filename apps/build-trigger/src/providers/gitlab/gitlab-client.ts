import { AxiosError, type AxiosInstance } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { GitLabServer } from './gitlab-settings.js';
import { gitlabErrorDetail } from './gitlab-api.js';

/** Axios for a GitLab API, with PRIVATE-TOKEN when `token` is given (none for the trigger endpoint). */
export function createGitLabHttp(
  server: GitLabServer,
  token: string | undefined,
  timeoutMs: number,
): AxiosInstance {
  return createUpstreamClient({
    upstream: 'gitlab',
    baseURL: server.apiUrl,
    headers: token ? { 'PRIVATE-TOKEN': token } : {},
    timeoutMs,
    describe: (res) => gitlabErrorDetail(res.data),
  });
}

/** Permanent GitLab errors phrased for the node message; transient ones (429 without Retry-After too) go to the kit. */
export function describeGitLabError(err: unknown, action: string): unknown {
  if (!(err instanceof UpstreamError) || err.transient || err.status === undefined) return err;
  const detail = err.cause instanceof AxiosError ? gitlabErrorDetail(err.cause.response?.data) : undefined;
  const suffix = detail ? `: ${detail}` : '';
  const hints: Record<number, string> = {
    401: `gitlab: authentication failed (401)${suffix}`,
    403: `gitlab: ${action}: forbidden (403)${suffix} (the token needs the api scope and at least the Developer role)`,
    404: `gitlab: ${action}: not found (404)${suffix}`,
  };
  const message = hints[err.status] ?? `gitlab: ${action} (${err.status})${suffix}`;
  return new UpstreamError('permanent', message, { status: err.status, cause: err.cause });
}
