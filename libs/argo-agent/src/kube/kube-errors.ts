/** A non-2xx answer of the API server (or a transport failure, status 0), with the API's own message. */
export class KubeError extends Error {
  constructor(
    readonly status: number,
    /** The Status object's reason (`NotFound`, `Conflict`, `Expired`...), empty when there was none. */
    readonly reason: string,
    message: string,
    /** The message as the API server wrote it (client-go's err.Error()): what Argo puts in node messages. */
    readonly apiMessage: string = message,
  ) {
    super(message);
    this.name = 'KubeError';
  }
}

const TRANSIENT_NETWORK = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
];

/**
 * Argo's errors.IsTransientErr (util/errors/errors.go) for an API call: too many requests, server timeouts,
 * service unavailable, the quota races, etcd's passing errors, and network failures (refused, reset, timed
 * out, a body cut short). Whatever else failed is not retried: the content of the request is at fault.
 */
export function isTransientKubeError(err: unknown): boolean {
  if (err instanceof KubeError) {
    const text = err.apiMessage;
    if (err.status === 0) return err.reason === ''; // no answer at all (a reply too large is no accident)
    if (err.status === 429 || err.status === 503 || err.status === 504) return true;
    if (err.reason === 'ServerTimeout' || err.reason === 'Timeout') return true;
    if (err.status === 403 && text.includes('exceeded quota')) return true;
    if (err.status === 409 && text.includes('Operation cannot be fulfilled on resourcequota')) return true;
    if (err.status === 500 && text.includes('resource quota evaluation timed out')) return true;
    return /etcdserver: (leader changed|request timed out|too many requests)/.test(text);
  }
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && TRANSIENT_NETWORK.includes(code)) return true;
  const text = String((err as Error | undefined)?.message ?? err);
  return /socket hang up|connection reset|connection refused|i\/o timeout|unexpected EOF|timed out/.test(
    text,
  );
}
