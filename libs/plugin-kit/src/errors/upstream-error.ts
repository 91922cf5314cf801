/**
 * Errors raised by a plugin's upstream (Slack, Jenkins, Databricks, ...). The kit turns them into node
 * replies: transient ones into `Running` with a backoff requeue (honouring Retry-After) until the retry
 * budget is spent, permanent ones into `Failed`.
 */
export type UpstreamErrorKind = 'transient' | 'permanent';

export interface UpstreamErrorOptions {
  /** HTTP status of the upstream reply, when there was one. */
  status?: number;
  /** How long the upstream asked us to wait (429/503 Retry-After), in milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class UpstreamError extends Error {
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    options: UpstreamErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'UpstreamError';
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  static transient(message: string, options?: UpstreamErrorOptions): UpstreamError {
    return new UpstreamError('transient', message, options);
  }

  static permanent(message: string, options?: UpstreamErrorOptions): UpstreamError {
    return new UpstreamError('permanent', message, options);
  }

  get transient(): boolean {
    return this.kind === 'transient';
  }
}

/** A plugin body that passed the config class but cannot be used (unknown workspace, ...): Failed, no retry. */
export class PluginConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginConfigError';
  }
}

/** 408, 425, 429 and every 5xx except 501 are worth retrying; everything else is the caller's problem. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && status !== 501);
}

/** Retry-After as seconds or an HTTP date; returns milliseconds or undefined. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' && typeof text !== 'number') return undefined;
  const s = String(text).trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const date = Date.parse(s);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** True for errors that mean "no usable reply came back": resets, refusals, DNS hiccups, timeouts. */
export function isNetworkError(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  return e.name === 'AbortError' || e.name === 'TimeoutError';
}
