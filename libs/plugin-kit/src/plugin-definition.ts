import type { DynamicModule, Type } from '@nestjs/common';
import type { ProviderTable } from './providers/provider-table.js';

/**
 * A deployable plugin. `load` returns the plugin's Nest module; it is imported on the first call addressed
 * to this plugin, so a sidecar that only ever sees other plugins' templates never loads its SDKs.
 */
export interface PluginDefinition<E extends object = object> {
  /** App and container name stem, e.g. `chat-notifier`. */
  name: string;
  /** The key under `template.plugin` that addresses this plugin, e.g. `slack`. */
  key: string;
  /**
   * Former keys the plugin still answers, each mapped to the field of the `key` body that holds it:
   * `{ slack: 'slack' }` reads `plugin: {slack: X}` as `plugin: {notify: {slack: X}}`. An alias's body keeps its
   * own execution key.
   */
  aliases?: PluginAliases;
  /**
   * Further keys the plugin answers, each with a handler and body class of its own (the notifier's `approve`):
   * the plugin module provides each with provideEntryHandler(key, Handler).
   */
  entries?: readonly string[];
  /** Default port: the containerPort of the plugin's manifest. */
  port: number;
  /** Admin configuration from the sidecar environment, validated at start-up. */
  env?: new () => E;
  /** Bounds of this plugin; each one unset here comes from the kit env (MAX_EXECUTIONS, UPSTREAM_MAX_BODY). */
  limits?: PluginLimits;
  /**
   * Variable families the env class reads beyond its declared fields (named connections such as
   * `JENKINS_<NAME>_URL`), as name prefixes. Only a collection sidecar uses them: there a plugin sees its
   * declared variables and these families, nothing of the other plugins.
   */
  envPrefixes?: string[];
  /**
   * The plugin's name in 0.1.0 (`slack-notifier`), when it was renamed: a collection still reads its per-plugin
   * prefix (`SLACK_NOTIFIER_NAMESPACE_SCOPES`) for one release, saying so in the log.
   */
  formerName?: string;
  /** Its providers' table, if it has providers: the manifest check requires each one's variables in its plugin.yaml. */
  providers?: ProviderTable;
  load(): Promise<Type | DynamicModule>;
}

export interface PluginLimits {
  /** Most executions of this plugin running at once; past it the front answers 503. */
  maxExecutions?: number;
  /** Largest upstream reply body this plugin's clients read, in bytes. */
  upstreamMaxBody?: number;
}
/** Alias key → the field of the canonical body its body goes into. */
export type PluginAliases = Readonly<Record<string, string>>;

export function definePlugin<E extends object>(definition: PluginDefinition<E>): PluginDefinition<E> {
  return definition;
}

/** Every key a definition answers: its own, its aliases and its entries. */
export function keysOf(definition: PluginDefinition): string[] {
  return [definition.key, ...Object.keys(definition.aliases ?? {}), ...(definition.entries ?? [])];
}
