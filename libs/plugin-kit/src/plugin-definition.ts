import type { DynamicModule, Type } from '@nestjs/common';

/**
 * A deployable plugin. `load` returns the plugin's Nest module; it is imported on the first call addressed
 * to this plugin, so a sidecar that only ever sees other plugins' templates never loads its SDKs.
 */
export interface PluginDefinition<E extends object = object> {
  /** App and container name stem, e.g. `slack-notifier`. */
  name: string;
  /** The key under `template.plugin` that addresses this plugin, e.g. `slack`. */
  key: string;
  /** Default port: the containerPort of the plugin's manifest. */
  port: number;
  /** Admin configuration from the sidecar environment, validated at start-up. */
  env?: new () => E;
  /** Bounds of this plugin; each one unset here comes from the kit env (MAX_EXECUTIONS, UPSTREAM_MAX_BODY). */
  limits?: PluginLimits;
  load(): Promise<Type | DynamicModule>;
}

export interface PluginLimits {
  /** Most executions of this plugin running at once; past it the front answers 503. */
  maxExecutions?: number;
  /** Largest upstream reply body this plugin's clients read, in bytes. */
  upstreamMaxBody?: number;
}

export function definePlugin<E extends object>(definition: PluginDefinition<E>): PluginDefinition<E> {
  return definition;
}
