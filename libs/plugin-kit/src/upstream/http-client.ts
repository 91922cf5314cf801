import axios, {
  AxiosError,
  AxiosHeaders,
  type AxiosInstance,
  type AxiosResponse,
  type AxiosResponseTransformer,
  type InternalAxiosRequestConfig,
  type RawAxiosRequestHeaders,
} from 'axios';
import {
  isNetworkError,
  isTransientStatus,
  parseRetryAfter,
  UpstreamError,
} from '../errors/upstream-error.js';
import { errorDetail } from './error-detail.js';
import { JsonCostMeter, type JsonCostLimits } from '../json/json-cost-meter.js';
import { ReplyTooLargeError, redactInScope, replyCostLimits, upstreamScope } from './upstream-scope.js';

export interface UpstreamClientOptions {
  /** Name used in messages: `jenkins: POST /job/x/build → 404 Not Found`. */
  upstream: string;
  /** Admin-configured base URL; request paths are always resolved against it. */
  baseURL: string;
  headers?: RawAxiosRequestHeaders;
  auth?: { username: string; password: string };
  /**
   * Per-request wall-clock deadline, from the first byte sent to the last byte read (default 10s); keep it
   * well below the call deadline. A reply trickling in byte by byte is aborted when it passes.
   */
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
 * permanent; Retry-After is carried along. Every request has a wall-clock deadline (`timeoutMs`, on top of
 * axios' idle timeout) and reads at most the upstream scope's body limit (a larger reply fails the node).
 * The credentials each request sends are registered with the scope's redactor in the exact form sent, and
 * messages are redacted before they are shortened.
 */
export function createUpstreamClient(options: UpstreamClientOptions): AxiosInstance {
  const deadlineMs = options.timeoutMs ?? 10_000;
  const client = axios.create({
    baseURL: options.baseURL.replace(/\/+$/, ''),
    allowAbsoluteUrls: false,
    headers: options.headers,
    auth: options.auth,
    timeout: deadlineMs,
    maxRedirects: 0,
    validateStatus: (status) => status >= 200 && status < 300,
    // Keep bodies we do not understand as text rather than failing to parse them.
    transitional: { silentJSONParsing: true, forcedJSONParsing: true, clarifyTimeoutError: true },
  });
  client.interceptors.request.use((config) => boundRequest(config, deadlineMs));
  client.interceptors.response.use(undefined, (err: unknown) =>
    Promise.reject(toUpstreamError(err, options)),
  );
  return client;
}

/** The deadline signal of each request, to tell "our deadline passed" from "the caller cancelled". */
const deadlines = new WeakMap<object, AbortSignal>();

/** Headers whose values are credentials, whatever the upstream (Authorization, GitLab's PRIVATE-TOKEN, ...). */
const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|private-token|job-token|cookie|x-[\w-]*(token|key|secret))$/i;

function boundRequest(config: InternalAxiosRequestConfig, deadlineMs: number): InternalAxiosRequestConfig {
  const scope = upstreamScope();
  const limit = scope.maxBodyBytes;
  const own = config.maxContentLength;
  config.maxContentLength = own !== undefined && own > -1 ? Math.min(own, limit) : limit;
  config.transformResponse = [refuseCostlyJson(replyCostLimits(scope)), ...toArray(config.transformResponse)];
  const deadline = AbortSignal.timeout(deadlineMs);
  const caller = config.signal as AbortSignal | undefined;
  config.signal = caller ? AbortSignal.any([caller, deadline]) : deadline;
  deadlines.set(config, deadline);
  if (scope.redactor) {
    const headers = AxiosHeaders.from(config.headers as never).toJSON() as Record<string, unknown>;
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string' || !CREDENTIAL_HEADER.test(name)) continue;
      const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
      scope.redactor.add(value, credential);
    }
    if (config.auth) scope.redactor.addLogin(config.auth.username, config.auth.password);
  }
  return config;
}

/**
 * The first response transform: a reply text whose JSON would build more values or nesting than `limits` is
 * refused before any later transform (axios' JSON.parse, or a caller's own) parses it, success or error reply.
 */
function refuseCostlyJson(limits: JsonCostLimits): AxiosResponseTransformer {
  return function (this: InternalAxiosRequestConfig, data: unknown) {
    if (typeof data !== 'string') return data;
    const excess = new JsonCostMeter(limits).feed(data);
    if (!excess) return data;
    throw AxiosError.from(ReplyTooLargeError.cost(excess, limits), AxiosError.ERR_BAD_RESPONSE, this);
  };
}

function toArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
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
  const deadline = err.config ? deadlines.get(err.config) : undefined;
  if (deadline?.aborted && (err.code === 'ERR_CANCELED' || err.name === 'CanceledError')) {
    return UpstreamError.transient(`${where}: timed out`, { cause: err });
  }
  if (err.cause instanceof ReplyTooLargeError)
    return UpstreamError.permanent(`${where}: ${err.cause.message}`, { cause: err.cause });
  if (err.code === AxiosError.ERR_BAD_RESPONSE && /maxContentLength/.test(err.message)) {
    const tooLarge = ReplyTooLargeError.bytes(err.config?.maxContentLength ?? upstreamScope().maxBodyBytes);
    return UpstreamError.permanent(`${where}: ${tooLarge.message}`, { cause: tooLarge });
  }
  const response = err.response;
  if (response) {
    const described = options.describe?.(response);
    const detail = described === undefined ? errorDetail(response.data) : redactInScope(described);
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
