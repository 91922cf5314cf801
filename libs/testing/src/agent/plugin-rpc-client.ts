import { request as httpRequest, STATUS_CODES } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { parseDuration, toAnyString, type ExecuteTemplateReply, type NodeResult } from '@app/contract';
import { decodeFirstJsonValue, GoDecodeError } from './json-decode.js';

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
  node?: NodeResult;
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
 * Argo's RPC client for one plugin (workflow/util/plugin/plugin.go + executor/plugins/rpc): POST with
 * `Authorization: Bearer <token>`, one timeout for the whole exchange, retries on connection errors,
 * timeouts, truncated bodies and 503; a 404 marks the method unsupported for the rest of the run.
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

  /** null when this plugin does not implement the method (404 now or earlier). Throws PluginCallError. */
  async executeTemplate(body: string): Promise<DecodedReply | null> {
    if (this.unsupported) return null;
    let lastError: PluginCallError | undefined;
    for (let attempt = 1; attempt <= this.timing.attempts; attempt++) {
      const started = performance.now();
      try {
        const result = await this.once(body, attempt, started);
        return result;
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

  private async once(body: string, attempt: number, started: number): Promise<DecodedReply | null> {
    const record: CallRecord = { plugin: this.plugin.name, attempt, ms: 0 };
    this.calls.push(record);
    try {
      const { status, text } = await this.post(body);
      record.status = status;
      if (status === 404) {
        this.unsupported = true;
        return null;
      }
      if (status === 503) throw new PluginCallError(text, true);
      if (status !== 200)
        throw new PluginCallError(`${status} ${STATUS_CODES[status] ?? ''}: ${text}`, false);
      return decodeReply(text);
    } catch (err) {
      record.error = (err as Error).message;
      throw err;
    } finally {
      record.ms = Math.round(performance.now() - started);
    }
  }

  private post(body: string): Promise<{ status: number; text: string }> {
    const url = new URL('/api/v1/template.execute', this.plugin.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${this.plugin.token}`,
            'User-Agent': 'Go-http-client/1.1',
            'Accept-Encoding': 'gzip',
            'Content-Length': Buffer.byteLength(body),
          },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            clearTimeout(timer);
            let data = Buffer.concat(chunks);
            if (res.headers['content-encoding'] === 'gzip') data = gunzipSync(data);
            resolve({ status: res.statusCode ?? 0, text: data.toString('utf8') });
          });
          res.on('error', (err) => fail(err));
          res.on('aborted', () => fail(new PluginCallError('unexpected EOF', true)));
        },
      );
      const fail = (err: Error): void => {
        clearTimeout(timer);
        reject(err instanceof PluginCallError ? err : classifyNetworkError(err));
      };
      const timer = setTimeout(() => {
        req.destroy(
          new PluginCallError(
            `Post "${url.href}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
            true,
          ),
        );
      }, this.timing.timeoutMs);
      req.on('error', fail);
      req.end(body);
    });
  }
}

function classifyNetworkError(err: Error & { code?: string }): PluginCallError {
  switch (err.code) {
    case 'ECONNREFUSED':
      return new PluginCallError(`dial tcp: connect: connection refused`, true);
    case 'ECONNRESET':
    case 'EPIPE':
      return new PluginCallError(`read: connection reset by peer`, true);
    default:
      // Go reports a server that closes without a reply as EOF, which Argo retries.
      return new PluginCallError(err.code ? `${err.code}: ${err.message}` : 'EOF', true);
  }
}

/** Decodes a 200 body the way the agent does (unknown fields ignored, null = no change, requeue a duration string). */
export function decodeReply(text: string): DecodedReply | null {
  let value: unknown;
  try {
    value = decodeFirstJsonValue(text);
  } catch (err) {
    const e = err as GoDecodeError;
    throw new PluginCallError(e.message, e.transient);
  }
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new PluginCallError(
      `json: cannot unmarshal ${goKind(value)} into Go value of type executor.ExecuteTemplateReply`,
      false,
    );
  }
  const reply = value as ExecuteTemplateReply & Record<string, unknown>;
  const decoded: DecodedReply = {};
  if (reply.requeue !== undefined && reply.requeue !== null) {
    if (typeof reply.requeue !== 'string') {
      throw new PluginCallError(
        `json: cannot unmarshal ${goKind(reply.requeue)} into Go value of type string`,
        false,
      );
    }
    try {
      decoded.requeueMs = parseDuration(reply.requeue);
    } catch (err) {
      throw new PluginCallError((err as Error).message, false);
    }
    decoded.requeue = reply.requeue;
  }
  if (reply.node !== undefined && reply.node !== null) decoded.node = decodeNode(reply.node);
  return decoded;
}

function decodeNode(node: unknown): NodeResult {
  if (typeof node !== 'object' || Array.isArray(node)) {
    throw new PluginCallError(
      `json: cannot unmarshal ${goKind(node)} into Go struct field ExecuteTemplateReply.node`,
      false,
    );
  }
  const n = node as Record<string, unknown>;
  const out: NodeResult = {};
  for (const field of ['phase', 'message', 'progress'] as const) {
    const v = n[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string')
      throw new PluginCallError(
        `json: cannot unmarshal ${goKind(v)} into Go struct field NodeResult.node.${field} of type string`,
        false,
      );
    (out as Record<string, string>)[field] = v;
  }
  const outputs = n.outputs as Record<string, unknown> | undefined;
  if (outputs && typeof outputs === 'object') {
    const params = Array.isArray(outputs.parameters) ? outputs.parameters : [];
    out.outputs = {
      ...(params.length > 0 && {
        parameters: params.map((p: Record<string, unknown>) => ({
          name: String(p?.name ?? ''),
          value: toAnyString(p?.value) ?? '',
        })),
      }),
      ...(typeof outputs.result === 'string' && { result: outputs.result }),
      ...(typeof outputs.exitCode === 'string' && { exitCode: outputs.exitCode }),
    };
  }
  return out;
}

function goKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}
