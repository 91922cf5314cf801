import type { Credential, EnvSource } from '../config/env.js';
import type { UpstreamKind } from '../config/named-upstreams.js';

/** An env class, as each provider's variables extend it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's base takes any constructor
export type EnvClass<T extends object = object> = new (...args: any[]) => T;

/** What a provider read of its settings at start-up. */
export interface SettingsRead<S> {
  settings: S;
  /** Each names a variable, never its value. */
  problems: string[];
  /** Variables read under a 0.1.0 name (`SLACK_BOT_TOKEN_OPS (now SLACK_OPS_BOT_TOKEN)`). */
  formerNames?: string[];
}

/**
 * A provider's start-up part: its variables and settings, read with the sidecar. A provider with only this part
 * (the notifier's GitHub, which answers approval gates) adds its variables and nothing to dispatch to.
 */
export interface ProviderSettings<V extends object = object, S = unknown> {
  /** Its key in the body (`googleChat`); its folder is the key in kebab case (`providers/google-chat`). */
  key: string;
  /** Its name in messages (`dbt Cloud`). */
  label?: string;
  /** Adds its variables (rules, secrets, defaults) to the sidecar's env class. */
  variables(base: EnvClass): EnvClass<V>;
  /** Its variable families (`SLACK_`): its named upstreams, and its share of a collection's environment. */
  prefixes: readonly string[];
  /** What enables it, for the start-up message when no provider is (`SLACK_BOT_TOKEN`). */
  enable: string;
  /** Its kinds in NAMESPACE_SCOPES (`slack`; `teams` and `teamsBot`). */
  scopeKinds: readonly string[];
  /** Reads its settings from its variables (their rules already checked) and the named upstreams' ones. */
  read(env: V, source: EnvSource): SettingsRead<S>;
  /** Whether the settings enable the provider. */
  configured(settings: S): boolean;
  /** Its upstreams' names, by NAMESPACE_SCOPES kind. */
  destinations(settings: S): Record<string, Iterable<string>>;
  /**
   * The credentials its settings hold beyond the env class's secret fields (named upstreams' ones, a password
   * sent with its user), for the redactor.
   */
  credentials?(settings: S): Credential[];
  /** Its named upstreams as a body chooses them (`connection: prod`), for a table's ProviderClients. */
  upstreams?: UpstreamKind;
  /**
   * Its approval channel, where a plugin has approval gates (the notifier's `approve`): loaded with the plugin's
   * module, in the plugin's own shape.
   */
  approval?: { load(): Promise<unknown> };
}

/**
 * One provider of a plugin: everything the rest of the plugin knows of it. Its start-up part (variables,
 * settings) loads with the sidecar; its Nest part (`load`, the plugin's own shape `M`) with the first own call,
 * so an idle sidecar holds no provider SDK.
 */
export interface ProviderDefinition<
  V extends object = object,
  S = unknown,
  M = unknown,
> extends ProviderSettings<V, S> {
  load(): Promise<M>;
}

/** A provider of any variables and settings, as a table holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own types
export type AnyProviderSettings = ProviderSettings<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own types
export type AnyProviderDefinition<M = unknown> = ProviderDefinition<any, any, M>;

/** `googleChat` → `google-chat`: the provider's folder under providers/ and stand-ins/. */
export function providerFolder(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function defineProvider<V extends object, S, M>(
  definition: ProviderDefinition<V, S, M>,
): ProviderDefinition<V, S, M> {
  return definition;
}

export function defineProviderSettings<V extends object, S>(
  definition: ProviderSettings<V, S>,
): ProviderSettings<V, S> {
  return definition;
}
