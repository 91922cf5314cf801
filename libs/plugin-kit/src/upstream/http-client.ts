import axios, {
  AxiosError,
  type AxiosInstance,
  type AxiosResponse,
  type RawAxiosRequestHeaders,
} from 'axios';
import {
  isNetworkError,
  isTransientStatus,
  parseRetryAfter,
  UpstreamError,
} from '../errors/upstream-error.js';
import { errorDetail } from './error-detail.js';

export interface UpstreamClientOptions {
  /** Name used in messages: `jenkins: POST /job/x/build → 404 Not Found`. */
  upstream: string;
  /** Admin-configured base URL; request paths are always resolved against it. */
  baseURL: string;
  headers?: RawAxiosRequestHeaders;
  auth?: { username: string; password: string };
  /** Per-request timeout; keep it well below the call deadline (default 10s). */
  timeoutMs?: number;
  /** Upstream-specific error text (for bodies the generic extraction does not understand). */
  describe?: (response: AxiosResponse) => string | undefined;
  /** Statuses that are transient for this upstream on top of the usual ones (e.g. GitHub's rate-limit 403). */
  transient?: (response: AxiosResponse) => boolean;
}

/**
 * An axios instance for one upstream. Absolute URLs are never followed away from `baseURL` (a workflow
 * body cannot make the plugin send the admin's credentials elsewhere), redirects are not followed, and
 * every failure becomes an UpstreamError: transient for network errors, timeouts, 408/425/429/5xx, else
 * permanent; Retry-After is carried along. Messages never include credentials.
 */
export function createUpstreamClient(options: UpstreamClientOptions): AxiosInstance {
  const client = axios.create({
    baseURL: options.baseURL.replace(/\/+$/, ''),
    allowAbsoluteUrls: false,
    headers: options.headers,
    auth: options.auth,
    timeout: options.timeoutMs ?? 10_000,
    maxRedirects: 0,
    validateStatus: (status) => status >= 200 && status < 300,
    // Keep bodies we do not understand as text rather than failing to parse them.
    transitional: { silentJSONParsing: true, forcedJSONParsing: true, clarifyTimeoutError: true },
  });
  client.interceptors.response.use(undefined, (err: unknown) =>
    Promise.reject(toUpstreamError(err, options)),
  );
  return client;
}

export function toUpstreamError(
  err: unknown,
  options: Pick<UpstreamClientOptions, 'upstream' | 'describe' | 'transient'>,
): Error {
  if (err instanceof UpstreamError) return err;
  if (!(err instanceof AxiosError)) return err instanceof Error ? err : new Error(String(err));
  const method = (err.config?.method ?? 'get').toUpperCase();
  const path = requestPath(err.config?.url);
  const where = `${options.upstream}: ${method} ${path}`;
  const response = err.response;
  if (response) {
    const detail = options.describe?.(response) ?? errorDetail(response.data);
    const statusText = response.statusText || httpReason(response.status);
    const message = `${where} → ${response.status}${statusText ? ` ${statusText}` : ''}${detail ? `: ${detail}` : ''}`;
    const transient = isTransientStatus(response.status) || (options.transient?.(response) ?? false);
    return new UpstreamError(transient ? 'transient' : 'permanent', message, {
      status: response.status,
      retryAfterMs: parseRetryAfter(response.headers?.['retry-after']),
      cause: err,
    });
  }
  const reason =
    err.code === 'ETIMEDOUT' || err.code === 'ECONNABORTED' ? 'timed out' : (err.code ?? err.message);
  if (isNetworkError(err) || err.code === 'ERR_NETWORK' || err.request) {
    return UpstreamError.transient(`${where}: ${reason}`, { cause: err });
  }
  return UpstreamError.permanent(`${where}: ${err.message}`, { cause: err });
}

/** The path of a request URL without its query (which may carry tokens, e.g. Jenkins `?token=`). */
function requestPath(url: string | undefined): string {
  if (!url) return '/';
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return url.split('?')[0];
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function httpReason(status: number): string {
  return REASONS[status] ?? '';
}
