import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { decodeArgoReply, type ArgoNodeResult, type ArgoReply } from './argo-reply.js';
import { GoHttpError, goPost, MAX_REPLY_BYTES, type WriteGuard } from './go-http-client.js';
import { goUtf8 } from './go-utf8.js';

/** One installed plugin as the agent sees it: address and the token from its token file. */
export interface AgentPlugin {
  name: string;
  url: string;
  token: string;
}

export interface RpcTiming {
  /** http.Client timeout, covering the whole exchange (default 30 s). */
  timeoutMs: number;
  /** First retry delay (1 s); doubled per attempt, +0–20 % jitter, 5 attempts in all. */
  backoffMs: number;
  attempts: number;
}

export const ARGO_RPC_TIMING: RpcTiming = { timeoutMs: 30_000, backoffMs: 1000, attempts: 5 };

/**
 * One plugin as the agent's dispatch sees it: `call` decodes the plugin's reply INTO `reply` (the agent shares
 * one across its plugins) and answers it, or null when the plugin does not implement the method.
 */
export interface PluginCaller {
  readonly name: string;
  /** `mayWrite` is asked just before each attempt goes out (see WriteGuard); a refusal fails the call. */
  call(body: string, reply: ArgoReply, mayWrite?: WriteGuard): Promise<ArgoReply | null>;
  /**
   * The workflow of `body` was stopped: cancel the remote work earlier calls started; answers whether a cancel
   * was sent. Argo's executor-plugin contract has no such call: only plugins hosted in process have it.
   */
  cancel?(body: string): Promise<boolean>;
}

/** A failed plugin call; `transient` errors were already retried by the client. */
export class PluginCallError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** The reply as decoded by Go into ExecuteTemplateReply, with the requeue parsed (ms). */
export interface DecodedReply {
  node?: ArgoNodeResult;
  requeueMs?: number;
  requeue?: string;
}

export interface CallRecord {
  plugin: string;
  attempt: number;
  status?: number;
  error?: string;
  ms: number;
}

/**
 * Client.Call's retry.OnError: `attempt` again while it fails with a transient PluginCallError, after 1, 2, 4,
 * 8 s (+0–20 % jitter), `timing.attempts` times in all; the last error when every attempt failed.
 */
export async function retryTransient<T>(
  timing: RpcTiming,
  random: () => number,
  attempt: (n: number) => Promise<T>,
  /** Abandons the retries (not the attempt on the wire): a caller that has stopped waiting. */
  signal?: AbortSignal,
): Promise<T> {
  let lastError: PluginCallError | undefined;
  for (let n = 1; n <= timing.attempts; n++) {
    if (signal?.aborted) throw lastError ?? new PluginCallError('the call was abandoned', false);
    try {
      return await attempt(n);
    } catch (err) {
      const e = err instanceof PluginCallError ? err : new PluginCallError(String(err), false);
      if (!e.transient) throw e;
      lastError = e;
      if (n < timing.attempts) {
        const delay = timing.backoffMs * 2 ** (n - 1) * (1 + 0.2 * random());
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
    }
  }
  throw lastError!;
}

/**
 * Argo's RPC client for one plugin (workflow/util/plugin/plugin.go Client.Call): POST with
 * `Authorization: Bearer <token>` through Go's http.Client (one 30 s timeout, redirects followed), retried
 * with backoff while the error is transient (connection refused or reset, a close without a reply, timeouts,
 * a body cut short inside the JSON value, 503). 200 is decoded with json.Decoder into the reply; 404 marks
 * the method unsupported for the rest of the run; any other status fails with `<status line>: <body>`.
 */
export class PluginRpcClient implements PluginCaller {
  /** Set by a 404: later calls return null at once, like the agent's invalid-method cache. */
  unsupported = false;
  /** Every HTTP attempt, unless the client was made with `record: false` (a long-lived agent). */
  readonly calls: CallRecord[] = [];

  constructor(
    readonly plugin: AgentPlugin,
    private readonly timing: RpcTiming = ARGO_RPC_TIMING,
    private readonly random: () => number = Math.random,
    /** Abandons the retries (not the attempt on the wire): a caller that has stopped waiting. */
    private readonly signal?: AbortSignal,
    private readonly record = true,
  ) {}

  get name(): string {
    return this.plugin.name;
  }

  /**
   * Decodes the reply INTO `reply` (the agent shares one across its plugins) and returns it, or null when
   * this plugin does not implement the method (404 now or earlier). Throws PluginCallError.
   */
  async call(body: string, reply: ArgoReply = {}, mayWrite?: WriteGuard): Promise<ArgoReply | null> {
    if (this.unsupported) return null;
    return retryTransient(
      this.timing,
      this.random,
      (attempt) => this.once(body, reply, attempt, performance.now(), mayWrite),
      this.signal,
    );
  }

  /** One plugin alone: the decoded reply, null for a 404, `{}` or `null` (nothing decoded). */
  async executeTemplate(body: string): Promise<DecodedReply | null> {
    const reply = await this.call(body);
    return reply ? toDecodedReply(reply) : null;
  }

  private async once(
    body: string,
    reply: ArgoReply,
    attempt: number,
    started: number,
    mayWrite: WriteGuard | undefined,
  ): Promise<ArgoReply | null> {
    const record: CallRecord = { plugin: this.plugin.name, attempt, ms: 0 };
    if (this.record) this.calls.push(record);
    try {
      const res = await goPost(
        new URL(EXECUTE_TEMPLATE_PATH, this.plugin.url).href,
        body,
        {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${this.plugin.token}`,
        },
        this.timing.timeoutMs,
        MAX_REPLY_BYTES,
        mayWrite,
      );
      record.status = res.status;
      try {
        switch (res.status) {
          case 200:
            return decodeArgoReply(await res.readFirstValue(), reply);
          case 404:
            await res.readAll();
            this.unsupported = true;
            return null;
          case 503:
            throw new PluginCallError(goUtf8(await res.readAll()), true);
          default:
            throw new PluginCallError(`${res.statusText}: ${goUtf8(await res.readAll())}`, false);
        }
      } finally {
        res.close();
      }
    } catch (err) {
      const e =
        err instanceof PluginCallError
          ? err
          : new PluginCallError((err as Error).message, err instanceof GoHttpError && err.transient);
      record.error = e.message;
      throw e;
    } finally {
      record.ms = Math.round(performance.now() - started);
    }
  }
}

export function toDecodedReply(reply: ArgoReply): DecodedReply | null {
  if (!reply.node && !reply.requeue) return null;
  return {
    ...(reply.node && { node: reply.node }),
    ...(reply.requeue && { requeue: reply.requeue.text, requeueMs: reply.requeue.ms }),
  };
}

/** Decodes a complete 200 body the way the agent does; null when nothing was decoded (`{}`, `null`). */
export function decodeReply(text: string | Buffer): DecodedReply | null {
  try {
    return toDecodedReply(decodeArgoReply(text));
  } catch (err) {
    throw new PluginCallError((err as Error).message, (err as { transient?: boolean }).transient === true);
  }
}
