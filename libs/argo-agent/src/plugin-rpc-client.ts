import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { decodeArgoReply, type ArgoNodeResult, type ArgoReply } from './argo-reply.js';
import { GoHttpError, goPost } from './go-http-client.js';

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
 * Argo's RPC client for one plugin (workflow/util/plugin/plugin.go Client.Call): POST with
 * `Authorization: Bearer <token>` through Go's http.Client (one 30 s timeout, redirects followed), retried
 * with backoff while the error is transient (connection refused or reset, a close without a reply, timeouts,
 * a body cut short inside the JSON value, 503). 200 is decoded with json.Decoder into the reply; 404 marks
 * the method unsupported for the rest of the run; any other status fails with `<status line>: <body>`.
 */
export class PluginRpcClient {
  /** Set by a 404: later calls return null at once, like the agent's invalid-method cache. */
  unsupported = false;
  readonly calls: CallRecord[] = [];

  constructor(
    readonly plugin: AgentPlugin,
    private readonly timing: RpcTiming = ARGO_RPC_TIMING,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * Decodes the reply INTO `reply` (the agent shares one across its plugins) and returns it, or null when
   * this plugin does not implement the method (404 now or earlier). Throws PluginCallError.
   */
  async call(body: string, reply: ArgoReply = {}): Promise<ArgoReply | null> {
    if (this.unsupported) return null;
    let lastError: PluginCallError | undefined;
    for (let attempt = 1; attempt <= this.timing.attempts; attempt++) {
      const started = performance.now();
      try {
        return await this.once(body, reply, attempt, started);
      } catch (err) {
        const e = err instanceof PluginCallError ? err : new PluginCallError(String(err), false);
        if (!e.transient) throw e;
        lastError = e;
        if (attempt < this.timing.attempts) {
          const delay = this.timing.backoffMs * 2 ** (attempt - 1) * (1 + 0.2 * this.random());
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    }
    throw lastError!;
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
  ): Promise<ArgoReply | null> {
    const record: CallRecord = { plugin: this.plugin.name, attempt, ms: 0 };
    this.calls.push(record);
    try {
      const res = await goPost(
        new URL(EXECUTE_TEMPLATE_PATH, this.plugin.url).href,
        body,
        {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${this.plugin.token}`,
          'User-Agent': 'Go-http-client/1.1',
          'Accept-Encoding': 'gzip',
        },
        this.timing.timeoutMs,
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
            throw new PluginCallError((await res.readAll()).toString('utf8'), true);
          default:
            throw new PluginCallError(`${res.statusText}: ${(await res.readAll()).toString('utf8')}`, false);
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
