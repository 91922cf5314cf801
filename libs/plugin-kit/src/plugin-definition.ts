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
  /**
   * Other keys the plugin answers too (a former key kept working), each mapped to the field of the `key` body
   * that holds it: `{ slack: 'slack' }` reads `plugin: {slack: X}` as `plugin: {notify: {slack: X}}`.
   */
  aliases?: PluginAliases;
  /** Default port: the containerPort of the plugin's manifest. */
  port: number;
  /** Admin configuration from the sidecar environment, validated at start-up. */
  env?: new () => E;
  load(): Promise<Type | DynamicModule>;
}

/** Alias key → the field of the canonical body its body goes into. */
export type PluginAliases = Readonly<Record<string, string>>;

export function definePlugin<E extends object>(definition: PluginDefinition<E>): PluginDefinition<E> {
  return definition;
}
