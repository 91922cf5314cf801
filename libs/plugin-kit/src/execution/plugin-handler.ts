import type { ExecuteTemplateReply, Template } from '@app/contract';
import type { PluginLogger } from '../logging/plugin-logger.js';

/** A class with a no-argument constructor: the plugin's config class (class-validator decorated). */
export type ConfigClass<C extends object = object> = new () => C;

/** Per-execution state the kit keeps for the handler (e.g. the upstream run id it started). */
export interface ExecutionState<S> {
  /** The state saved by an earlier call for the same execution key, if any. */
  get(): S | undefined;
  /** Saves state for later calls with the same key; await it before replying Running. */
  set(state: S): Promise<void>;
}

export interface WorkflowMeta {
  name: string;
  namespace: string;
  uid: string;
  /**
   * The Workflow's labels as the agent sent them (the shared agent: its creator labels, `{}` when it could not
   * read them); undefined when the agent sends none (Argo's agent never does).
   */
  labels?: Readonly<Record<string, string>>;
}

/** What a handler gets for one call. */
export interface ExecutionContext<C extends object, S = unknown> {
  /** The plugin body, validated and transformed into the config class. */
  config: C;
  workflow: WorkflowMeta;
  /** The whole template as the agent sent it (type from Argo's own CRD schema). */
  template: Template;
  /** Input parameters: value, else default. */
  parameters: Readonly<Record<string, string>>;
  /** Stable id of this execution: identical calls (requeue, agent retry, restart) share it. */
  key: string;
  /** The number of calls seen for this key by this process, 1 on the first. */
  call: number;
  /** Logger that adds workflow, template and key to every line. */
  logger: PluginLogger;
  /** Aborted when the sidecar shuts down or the background work exceeds its hard limit. */
  signal: AbortSignal;
  state: ExecutionState<S>;
}

/**
 * A plugin: its name, the config class of its body, and execute(). The kit has already checked auth,
 * routing, that the template is addressed to this plugin and that the body is valid; it handles
 * idempotency, the call deadline and error mapping. Use the reply helpers succeeded/failed/running.
 */
export interface PluginHandler<C extends object = object, S = unknown> {
  readonly configClass: ConfigClass<C>;
  execute(ctx: ExecutionContext<C, S>): Promise<ExecuteTemplateReply> | ExecuteTemplateReply;
  /**
   * The workflow was stopped while this execution ran: stop its remote work (`ctx.state` holds what earlier
   * calls saved). Answers whether a cancel was sent upstream; called at most once per stop, by the agent.
   */
  cancel?(ctx: ExecutionContext<C, S>): Promise<boolean>;
}

/** Nest injection token under which a plugin module provides its handler. */
export const PLUGIN_HANDLER = Symbol.for('executor-plugins.handler');

/** Nest injection token under which a plugin module provides the handler of its entry `key`. */
export function entryHandlerToken(key: string): symbol {
  return Symbol.for(`executor-plugins.entry-handler.${key}`);
}
