import { setMaxListeners } from 'node:events';
import {
  envelopeProblems,
  formatDuration,
  isFinalPhase,
  isNodePhase,
  pluginBodyFor,
  tryParseDuration,
  type ExecuteTemplateArgs,
  type ExecuteTemplateReply,
} from '@app/contract';
import { MAX_BODY_DEPTH, nestingDepth } from '../ledger/canonical-json.js';
import type { ConfigValidation } from '../config/plugin-config.js';
import { PluginConfigError, UpstreamError } from '../errors/upstream-error.js';
import { executionKey, inputParameters } from '../ledger/execution-key.js';
import type { ExecutionLedger } from '../ledger/execution-ledger.js';
import type { LedgerEntry } from '../ledger/ledger-store.js';
import type { PluginLogger } from '../logging/plugin-logger.js';
import type { Redactor } from '../logging/redactor.js';
import type { PluginAliases } from '../plugin-definition.js';
import type { ExecutionContext, PluginHandler } from './plugin-handler.js';
import { runInUpstreamScope, type UpstreamScope } from '../upstream/upstream-scope.js';
import { executionSignal } from './execution-signal.js';
import { OverloadedError } from './overloaded-error.js';
import { failed, running } from './replies.js';

export interface RetryPolicy {
  /** Consecutive transient failures tolerated before the node fails. */
  budget: number;
  /** First backoff; doubled per consecutive failure. */
  baseMs: number;
  maxMs: number;
}

/** A handler and the check of its body. */
export interface LoadedHandler {
  handler: PluginHandler;
  validateConfig(body: unknown): ConfigValidation<object>;
}

/** The plugin's handler, and those of its entries by key. */
export interface LoadedPlugin extends LoadedHandler {
  entries?: ReadonlyMap<string, LoadedHandler>;
}

export interface TemplateExecutorOptions {
  /** Key under `template.plugin` that addresses this plugin. */
  key: string;
  /** Other keys answered too, each mapped to the field of the `key` body that holds it. */
  aliases?: PluginAliases;
  /** Keys answered by a handler of their own (the loaded plugin's `entries`). */
  entries?: readonly string[];
  logger: PluginLogger;
  redactor: Redactor;
  ledger: ExecutionLedger;
  /** The handler and the check of its config, loaded on first use. */
  load: () => Promise<LoadedPlugin>;
  deadlineMs: number;
  /** Requeue when the deadline passes with work still running. */
  deadlineRequeueMs?: number;
  /** Requeue added to a Running/Pending reply that has none. */
  defaultRequeueMs?: number;
  retry: RetryPolicy;
  /** Hard limit for one execution, including the time it runs on after the deadline. */
  backgroundLimitMs?: number;
  /** Aborted at shutdown; handlers see it through ctx.signal. */
  shutdown: AbortSignal;
  /**
   * Most executions of this plugin running at once (in the handler or in the background after the
   * deadline); a call that would start one more is refused with OverloadedError (the front answers 503).
   */
  maxExecutions: number;
  /** Largest upstream reply body the handler's clients read (the kit's clients find it in the upstream scope). */
  upstreamMaxBodyBytes: number;
  /** Most JSON values and keys the handler's clients build from one reply. */
  upstreamMaxValues: number;
}

const MAX_MESSAGE = 4000;

/** The body addressed to this plugin, under its own key or an alias. */
interface OwnBody {
  /** The key the template used: the prefix of its messages. */
  label: string;
  /** The body as sent: the material of the execution key (an alias keeps the keys of its own bodies). */
  sent: unknown;
  /** The body in the shape of the config class. */
  body: unknown;
  /** For an alias: the field its body went into, left out of field paths in messages (`slack.channel` → `channel`). */
  under?: string;
  /** For an entry: its key, whose handler runs the body. */
  entry?: string;
}

/**
 * Everything between "this template is addressed to us" and the reply: envelope checks, config validation,
 * the execution key and ledger (idempotency, single-flight, deadline), error mapping and reply invariants.
 */
export class TemplateExecutor {
  private readonly scope: UpstreamScope;
  /** Admitted executions whose work has not started yet (not yet counted by the ledger). */
  private admitting = 0;

  constructor(private readonly options: TemplateExecutorOptions) {
    // One abort listener per execution in flight: not a leak, so no MaxListenersExceededWarning.
    setMaxListeners(0, options.shutdown);
    this.scope = {
      maxBodyBytes: options.upstreamMaxBodyBytes,
      maxValues: options.upstreamMaxValues,
      redactor: options.redactor,
    };
  }

  /** Executions running now, in the handler or in the background. */
  get running(): number {
    return this.options.ledger.inFlight + this.admitting;
  }

  /**
   * Always returns a valid reply (`{}` when the template is not addressed to this plugin); throws only
   * OverloadedError, when the call would start an execution beyond `maxExecutions`.
   */
  async execute(body: unknown): Promise<ExecuteTemplateReply> {
    const own = this.ownBody(body);
    if (!own) return {};
    const started = performance.now();
    const request = body as Record<string, unknown>;
    let log = this.callLogger(request);
    let reply: ExecuteTemplateReply;
    let source = 'executed';
    try {
      const outcome = await runInUpstreamScope(this.scope, () =>
        this.executeOwn(request, own, (key) => (log = log.child({ key: key.slice(0, 16) }))),
      );
      reply = outcome.reply;
      source = outcome.source;
    } catch (err) {
      if (err instanceof OverloadedError) {
        log.warn({ running: this.running, maxExecutions: this.options.maxExecutions }, err.message);
        throw err;
      }
      reply = this.internalError(err, log, own.label);
    }
    reply = this.finalize(reply, own.label);
    const node = reply.node ?? {};
    log[node.phase === 'Failed' ? 'warn' : 'info'](
      {
        phase: node.phase,
        durationMs: Math.round(performance.now() - started),
        source,
        ...(reply.requeue && { requeue: reply.requeue }),
        ...(node.phase === 'Failed' && { message: node.message }),
      },
      'template.execute',
    );
    return reply;
  }

  /** The canonical key first; an alias, then an entry, only when the template does not use the keys before it. */
  private ownBody(body: unknown): OwnBody | undefined {
    const own = pluginBodyFor(body, this.options.key);
    if (own.found) return { label: this.options.key, sent: own.value, body: own.value };
    for (const [alias, under] of Object.entries(this.options.aliases ?? {})) {
      const aliased = pluginBodyFor(body, alias);
      if (aliased.found)
        return { label: alias, sent: aliased.value, body: { [under]: aliased.value }, under };
    }
    for (const entry of this.options.entries ?? []) {
      const entered = pluginBodyFor(body, entry);
      if (entered.found) return { label: entry, sent: entered.value, body: entered.value, entry };
    }
    return undefined;
  }

  private async executeOwn(
    request: Record<string, unknown>,
    own: OwnBody,
    onKey: (key: string) => void,
  ): Promise<{ reply: ExecuteTemplateReply; source: string }> {
    const { ledger } = this.options;
    const pluginKey = own.label;
    const pluginBody = own.sent;
    const problems = envelopeProblems(request);
    if (problems.length > 0)
      return { reply: failed(`${pluginKey}: invalid request: ${problems.join('; ')}`), source: 'rejected' };
    const args = request as unknown as ExecuteTemplateArgs;
    const parameters = inputParameters(args);

    // A repeat of an execution that already succeeded (requeue, agent retry) is answered from the ledger
    // without loading or running anything: the same body gives the same key, and it was validated then.
    const known =
      nestingDepth(pluginBody, MAX_BODY_DEPTH) <= MAX_BODY_DEPTH
        ? executionKey(args, pluginBody, parameters)
        : undefined;
    const replay = known === undefined ? undefined : await ledger.succeeded(known);
    if (known !== undefined && replay) {
      onKey(known);
      return { reply: replay, source: 'replayed' };
    }

    // A call that joins a running execution costs nothing more; one that would start a new one is refused
    // when the plugin already runs as many as it may (before the handler is loaded or the body validated).
    if ((known === undefined || !ledger.isRunning(known)) && this.running >= this.options.maxExecutions)
      throw new OverloadedError(pluginKey, this.options.maxExecutions);
    this.admitting++;
    let admitted = true;
    const started = (): void => {
      if (admitted) this.admitting--;
      admitted = false;
    };
    try {
      const { handler, validateConfig } = handlerOf(await this.options.load(), own.entry);
      const validation = validateConfig(own.body);
      if (!validation.ok) {
        const problems = validation.problems.map((p) => withoutAliasField(p, own.under));
        return {
          reply: failed(`${pluginKey}: invalid config: ${problems.join('; ')}`),
          source: 'rejected',
        };
      }
      const key = known ?? executionKey(args, pluginBody, parameters);
      onKey(key);
      const deadlineRequeue = this.options.deadlineRequeueMs ?? 5000;
      return await ledger.run(
        key,
        (entry) => {
          started(); // the ledger counts it from here on
          return this.runHandler(handler, args, validation.config, parameters, key, entry, own);
        },
        this.options.deadlineMs,
        (entry) => running(this.stillWorking(pluginKey, entry), deadlineRequeue),
      );
    } finally {
      started();
    }
  }

  private async runHandler(
    handler: PluginHandler,
    args: ExecuteTemplateArgs,
    config: object,
    parameters: Record<string, string>,
    key: string,
    entry: LedgerEntry,
    own: OwnBody,
  ): Promise<ExecuteTemplateReply> {
    const { signal, release } = executionSignal(
      this.options.shutdown,
      this.options.backgroundLimitMs ?? 10 * 60_000,
    );
    const ctx = this.context(args, config, parameters, key, entry, signal);
    try {
      const reply = await handler.execute(ctx);
      if (entry.transientFailures > 0)
        await this.options.ledger.update(key, (e) => {
          e.transientFailures = 0;
          delete e.lastFailure;
        });
      return reply;
    } catch (err) {
      return this.mapError(err, key, entry, ctx.logger, own);
    } finally {
      release();
    }
  }

  private context(
    args: ExecuteTemplateArgs,
    config: object,
    parameters: Record<string, string>,
    key: string,
    entry: LedgerEntry,
    signal: AbortSignal,
  ): ExecutionContext<object> {
    const { ledger } = this.options;
    const meta = args.workflow.metadata;
    let state = entry.state;
    return {
      config,
      workflow: {
        name: meta.name,
        namespace: meta.namespace,
        uid: meta.uid,
        ...(stringMap(meta.labels) && { labels: stringMap(meta.labels) }),
      },
      template: args.template,
      parameters,
      key,
      call: entry.calls,
      logger: this.callLogger(args as unknown as Record<string, unknown>).child({ key: key.slice(0, 16) }),
      signal,
      state: {
        get: () => state,
        set: async (next) => {
          state = next;
          await ledger.saveState(key, next);
        },
      },
    };
  }

  /**
   * The workflow of this request was stopped: the handler's `cancel` for the execution the request names, when
   * an earlier call saved state for it and it has not succeeded. Answers whether a cancel was sent upstream;
   * never throws (a failure is logged).
   */
  async cancel(body: unknown): Promise<boolean> {
    const own = this.ownBody(body);
    if (!own) return false;
    const request = body as Record<string, unknown>;
    if (envelopeProblems(request).length > 0 || nestingDepth(own.sent, MAX_BODY_DEPTH) > MAX_BODY_DEPTH)
      return false;
    const args = request as unknown as ExecuteTemplateArgs;
    const parameters = inputParameters(args);
    const key = executionKey(args, own.sent, parameters);
    const log = this.callLogger(request).child({ key: key.slice(0, 16) });
    const { signal, release } = executionSignal(this.options.shutdown, this.options.deadlineMs);
    try {
      const entry = await this.options.ledger.store.get(key);
      if (entry?.state === undefined || entry.result?.node?.phase === 'Succeeded') return false;
      const { handler, validateConfig } = await this.options.load();
      const validation = validateConfig(own.body);
      if (!handler.cancel || !validation.ok) return false;
      const ctx = this.context(args, validation.config, parameters, key, entry, signal);
      return await runInUpstreamScope(this.scope, () => handler.cancel!(ctx));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn(
        { err },
        `could not cancel after the workflow was stopped: ${this.options.redactor.redact(message)}`,
      );
      return false;
    } finally {
      release();
    }
  }

  private async mapError(
    err: unknown,
    key: string,
    entry: LedgerEntry,
    log: PluginLogger,
    own: OwnBody,
  ): Promise<ExecuteTemplateReply> {
    const { retry } = this.options;
    const pluginKey = own.label;
    if (isUpstreamError(err)) {
      if (!err.transient) return failed(err.message);
      const attempt = entry.transientFailures + 1;
      await this.options.ledger.update(key, (e) => {
        e.transientFailures = attempt;
        e.lastFailure = err.message;
      });
      if (attempt > retry.budget) return failed(`${err.message} (gave up after ${attempt} attempts)`);
      const backoff = Math.min(retry.baseMs * 2 ** (attempt - 1), retry.maxMs);
      const delay = Math.max(backoff, err.retryAfterMs ?? 0);
      log.warn({ attempt, retryInMs: delay, status: err.status }, `transient upstream error: ${err.message}`);
      return running(
        `${err.message}; retrying in ${formatDuration(delay)} (attempt ${attempt} of ${retry.budget})`,
        delay,
      );
    }
    if (err instanceof PluginConfigError || (err as Error)?.name === 'PluginConfigError') {
      return failed(`${pluginKey}: invalid config: ${withoutAliasField((err as Error).message, own.under)}`);
    }
    return this.internalError(err, log, pluginKey);
  }

  /**
   * The reply of a call whose work outlives the deadline. After a transient failure it names the attempt
   * running and why the one before failed: an upstream that times out each attempt would otherwise say
   * only "still working" while it is retried.
   */
  private stillWorking(pluginKey: string, entry: LedgerEntry): string {
    const after = `still working after ${formatDuration(this.options.deadlineMs)}`;
    if (entry.transientFailures === 0 || !entry.lastFailure) return `${pluginKey}: ${after}`;
    return `${pluginKey}: ${after}, retrying after attempt ${entry.transientFailures} of ${this.options.retry.budget} failed: ${entry.lastFailure}`;
  }

  private internalError(err: unknown, log: PluginLogger, label: string): ExecuteTemplateReply {
    const message = err instanceof Error ? err.message : String(err);
    log.error({ err }, `internal error: ${message}`);
    return failed(`${label}: internal error: ${message}`);
  }

  /** The reply invariants: a known phase, requeue on every non-final phase and never on a final one, secrets masked. */
  private finalize(reply: ExecuteTemplateReply, label: string): ExecuteTemplateReply {
    const node = reply?.node;
    if (!node || !isNodePhase(node.phase)) {
      return failed(`${label}: internal error: the handler returned no node phase`);
    }
    const out: ExecuteTemplateReply = { node: { ...node } };
    if (!isFinalPhase(node.phase)) {
      const requeueMs = tryParseDuration(reply.requeue);
      out.requeue =
        requeueMs !== undefined && requeueMs > 0
          ? reply.requeue
          : formatDuration(this.options.defaultRequeueMs ?? 10_000);
    }
    const { redactor } = this.options;
    if (out.node!.message !== undefined) {
      const message = redactor.redact(String(out.node!.message));
      out.node!.message = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
    }
    if (out.node!.outputs) out.node!.outputs = redactor.redactValue(out.node!.outputs);
    return out;
  }

  private callLogger(request: Record<string, unknown>): PluginLogger {
    const workflow = (request.workflow as { metadata?: Record<string, unknown> } | undefined)?.metadata ?? {};
    const template = request.template as { name?: unknown } | undefined;
    return this.options.logger.child({
      workflow: { name: workflow.name, namespace: workflow.namespace, uid: workflow.uid },
      template: template?.name,
    });
  }
}

/** `value` when it is an object of strings (labels as the agent sent them), else undefined. */
function stringMap(value: unknown): Readonly<Record<string, string>> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, v]) => typeof v === 'string')
    ? (Object.fromEntries(entries) as Record<string, string>)
    : undefined;
}

/** The handler that runs a body: the plugin's, or its entry's. */
function handlerOf(loaded: LoadedPlugin, entry: string | undefined): LoadedHandler {
  if (entry === undefined) return loaded;
  const handler = loaded.entries?.get(entry);
  if (!handler) throw new Error(`the plugin module provides no handler for its entry ${entry}`);
  return handler;
}

/** A problem about `slack.channel` reads `channel` to a template that used the alias `slack`. */
function withoutAliasField(problem: string, under: string | undefined): string {
  return under !== undefined && problem.startsWith(`${under}.`) ? problem.slice(under.length + 1) : problem;
}

function isUpstreamError(err: unknown): err is UpstreamError {
  return (
    err instanceof UpstreamError || (err instanceof Error && err.name === 'UpstreamError' && 'kind' in err)
  );
}
