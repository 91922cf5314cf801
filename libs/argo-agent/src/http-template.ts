// Argo's agent executing an HTTP template (workflow/executor/agent.go executeHTTPTemplate and
// executeHTTPTemplateRequest), with Go's net/http where it shows: the request as http.NewRequestWithContext
// builds it, headers added in order (Host rewrites the Host), http.DefaultClient (redirects, no timeout of its
// own) under a context deadline of timeoutSeconds covering the request and the body, and the successCondition
// evaluated by the expr engine over the request and the response as Argo's argoexpr.EvalBool does.
import type { BlockedNetworks } from './blocked-networks.js';
import {
  compile,
  execute,
  ExprCompileError,
  ExprRuntimeError,
  GoInt,
  nilSlice,
  sprintS,
  tagged,
  type EvaluationBudget,
  type ExprValue,
} from '@app/expr';
import type { ArgoNodeResult } from './argo-reply.js';
import {
  BodyTooLargeError,
  canonicalHeaderKey,
  goRequest,
  GoHttpError,
  type GoResponse,
  type WriteGuard,
} from './go-http-client.js';

/** wfv1.HTTP as the TaskSet holds it (bodyFrom.bytes is base64, as Go's []byte in JSON). */
export interface HttpTemplate {
  method?: string;
  url: string;
  headers?: Array<{
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string } };
  }>;
  timeoutSeconds?: number;
  successCondition?: string;
  body?: string;
  bodyFrom?: { bytes?: string };
  insecureSkipVerify?: boolean;
}

export interface HttpTemplateOptions {
  /**
   * util.GetSecrets in the workflow's own namespace: the bytes of one key, or an error worded as Argo's
   * (`secrets "x" not found`, `secret 'x' does not have the key 'k'`).
   */
  secret(name: string, key: string): Promise<Buffer>;
  /** Largest response body read (Argo reads any; its result must still fit the TaskSet and the workflow). */
  maxBodyBytes: number;
  /** Deadline of a template without timeoutSeconds (Argo: none); undefined for none. */
  defaultTimeoutMs?: number;
  /** Longest deadline of any template, its timeoutSeconds included (Argo: none); undefined for none. */
  maxTimeoutMs?: number;
  /** Networks the template may not reach, at any hop (Argo: none). */
  blocked?: BlockedNetworks;
  /** Steps and time one successCondition may take (Argo: none). */
  exprBudget?: EvaluationBudget;
  /** Asked just before the request (each hop) is written; a reason refuses it (Argo: none). */
  mayWrite?: WriteGuard;
}

/** An HTTP template that cannot run: Argo's agent fails the node with this text (processTask: Failed). */
export class HttpTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HttpTemplateError';
  }
}

// RFC 7230 token: what Go's validMethod accepts.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Runs the template; answers the node (phase, message, outputs.result = body) or throws HttpTemplateError
 * with Argo's message (the node then fails with it).
 */
export async function executeHttpTemplate(
  http: HttpTemplate,
  options: HttpTemplateOptions,
): Promise<ArgoNodeResult> {
  // http.NewRequestWithContext: "" is GET; a method that is not a token is refused.
  const method = http.method || 'GET';
  if (!TOKEN.test(method)) throw new HttpTemplateError(`net/http: invalid method ${JSON.stringify(method)}`);
  const url = checkUrl(method, http.url ?? '');
  let body: Buffer | string;
  if (http.bodyFrom != null) {
    // Go would dereference a nil request here and crash the agent; a node that fails says why instead.
    if (http.bodyFrom.bytes == null)
      throw new HttpTemplateError('the HTTP template has bodyFrom without bytes: nothing to send');
    body = Buffer.from(http.bodyFrom.bytes, 'base64');
  } else body = http.body ?? '';

  const headers: Record<string, string[]> = {};
  let host: string | undefined;
  for (const header of http.headers ?? []) {
    let value = header.value ?? '';
    const ref = header.valueFrom?.secretKeyRef;
    if (ref) value = (await options.secret(ref.name, ref.key)).toString('latin1');
    if (header.name.toLowerCase() === 'host') host = value;
    else (headers[canonicalHeaderKey(header.name)] ??= []).push(value);
  }

  const asked =
    http.timeoutSeconds != null ? Math.max(0, http.timeoutSeconds) * 1000 : options.defaultTimeoutMs;
  const timeoutMs =
    options.maxTimeoutMs === undefined ? asked : Math.min(asked ?? Infinity, options.maxTimeoutMs);
  let response: GoResponse;
  let bodyBytes: Buffer;
  try {
    response = await goRequest({
      method,
      url,
      body,
      headers,
      host,
      timeoutMs,
      deadline: 'context',
      insecureSkipVerify: http.insecureSkipVerify === true,
      transparentGzip: true,
      blocked: options.blocked,
      mayWrite: options.mayWrite,
    });
    try {
      bodyBytes = await response.readAll(options.maxBodyBytes);
    } finally {
      response.close();
    }
  } catch (err) {
    if (err instanceof GoHttpError) throw new HttpTemplateError(err.message);
    if (err instanceof BodyTooLargeError)
      throw new HttpTemplateError(`${err.message}: the agent reads at most ${options.maxBodyBytes} bytes`);
    throw err;
  }
  const text = bodyBytes.toString('utf8');
  const outputs = { result: text };
  if (!http.successCondition) {
    const ok = response.status >= 200 && response.status < 300;
    return ok
      ? { phase: 'Succeeded', outputs }
      : { phase: 'Failed', message: `received non-2xx response code: ${response.status}`, outputs };
  }
  const env = {
    request: new Map<string, ExprValue>([
      ['method', http.method ?? ''],
      ['url', http.url ?? ''],
      ['body', http.body ?? ''],
      ['bodyBytes', goBytes(http.bodyFrom ? body : undefined)],
      ['headers', requestHeader(http.headers ?? [])],
    ]),
    response: new Map<string, ExprValue>([
      ['statusCode', BigInt(response.status)],
      ['body', text],
      ['headers', goHeaderValue(response.header)],
    ]),
  };
  const success = evalBool(http.successCondition, env, options.exprBudget);
  return success
    ? { phase: 'Succeeded', outputs }
    : {
        phase: 'Failed',
        message: `successCondition '${http.successCondition}' evaluated false`,
        outputs,
      };
}

const BUDGET_REASONS = new Set(['step budget exceeded', 'time budget exceeded']);

/**
 * argoexpr.EvalBool: a compile error as expr words it, a run error and a non-bool result as Argo does; a run
 * past the budget (which Argo's agent does not have) says which bound stopped it.
 */
export function evalBool(source: string, env: Record<string, unknown>, budget?: EvaluationBudget): boolean {
  let result: ExprValue;
  try {
    result = execute(compile(source, env), env, budget);
  } catch (err) {
    if (err instanceof ExprCompileError) throw new HttpTemplateError(err.message);
    const reason =
      err instanceof ExprRuntimeError && BUDGET_REASONS.has(err.reason)
        ? `${err.reason}: the agent evaluates a successCondition in at most ${budget?.maxSteps} steps and ${budget?.timeoutMs} ms`
        : (err as Error).message;
    throw new HttpTemplateError(`unable to evaluate expression '${source}': ${reason}`);
  }
  if (typeof result !== 'boolean')
    throw new HttpTemplateError(`unable to cast expression result '${sprintS(result)}' to bool`);
  return result;
}

/** http.Header as a Go map in the expression: canonical keys, []string values. */
function goHeaderValue(header: Map<string, string[]>): ExprValue {
  const map = new Map<string, ExprValue>();
  for (const [key, values] of header) map.set(key, tagged([...values], '[]string'));
  return tagged(map, 'http.Header');
}

/** HTTPHeaders.ToHeader: plain values only (not secrets), under the name as written, the last one winning. */
function requestHeader(headers: NonNullable<HttpTemplate['headers']>): ExprValue {
  const map = new Map<string, string[]>();
  for (const h of headers) if (!h.valueFrom) map.set(h.name, [h.value ?? '']);
  return goHeaderValue(map);
}

/** A Go []byte: nil without bodyFrom. */
function goBytes(bytes: Buffer | string | undefined): ExprValue {
  if (bytes === undefined) return nilSlice('[]uint8');
  return tagged(
    [...Buffer.from(bytes)].map((b) => new GoInt('uint8', BigInt(b))),
    '[]uint8',
  );
}

/**
 * url.Parse as http.NewRequest reports it (`parse "…": …`), and the client's refusal of a scheme it cannot
 * send (`Get "…": unsupported protocol scheme "…"`).
 */
function checkUrl(method: string, text: string): string {
  if (text.startsWith(':'))
    throw new HttpTemplateError(`parse ${JSON.stringify(text)}: missing protocol scheme`);
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(text)?.[1] ?? '';
  if (!['http', 'https'].includes(scheme.toLowerCase()))
    throw new HttpTemplateError(
      `${method[0]}${method.slice(1).toLowerCase()} ${JSON.stringify(text)}: unsupported protocol scheme "${scheme}"`,
    );
  try {
    new URL(text);
  } catch {
    throw new HttpTemplateError(`parse ${JSON.stringify(text)}: invalid URL`);
  }
  return text;
}
