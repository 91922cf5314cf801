import type { Type } from '@nestjs/common';
import type { EnvSource } from '@app/plugin-kit';
import type { NotifierProvider } from './notifier-provider.js';

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

/** The Nest side of a provider, loaded with the plugin's module on the first own call. */
export interface ProviderModule<C extends object = object> {
  /** The class of its block under `notify` (its class-validator rules). */
  config: new () => C;
  /** Sends the message: the handler's entry for the provider's key. */
  provider: Type<NotifierProvider<C>>;
  /** The classes it injects that no other provider gives (Slack's client factory, ...). */
  helpers?: Type[];
}

/**
 * A provider's start-up part: its variables and settings, read with the sidecar. GitHub has only this part
 * (it answers approval gates, not `notify`); the notifier's providers add their Nest part.
 */
export interface ProviderSettings<V extends object = object, S = unknown> {
  /** Its key under `notify` (`googleChat`); its folder is the key in kebab case (`providers/google-chat`). */
  key: string;
  /** Adds its variables (rules, secrets, defaults) to the sidecar's env class. */
  variables(base: EnvClass): EnvClass<V>;
  /** Its variable families (`SLACK_`): its named destinations, and its share of a collection's environment. */
  prefixes: readonly string[];
  /** What enables it, for the start-up message when no provider is (`SLACK_BOT_TOKEN`). */
  enable: string;
  /** Its kinds in NAMESPACE_SCOPES (`slack`; `teams` and `teamsBot`). */
  scopeKinds: readonly string[];
  /** Reads its settings from its variables (their rules already checked) and the named destinations' ones. */
  read(env: V, source: EnvSource): SettingsRead<S>;
  /** Whether the settings enable the provider. */
  configured(settings: S): boolean;
  /** Its destinations' names, by NAMESPACE_SCOPES kind. */
  destinations(settings: S): Record<string, Iterable<string>>;
}

/**
 * One provider of the notifier: everything the rest of the plugin knows of it. Its start-up part (variables,
 * settings) loads with the sidecar; its Nest part (`load`) with the first own call, so an idle sidecar holds no
 * provider SDK. The table of them is providers/provider-table.ts.
 */
export interface ProviderDefinition<V extends object = object, S = unknown> extends ProviderSettings<V, S> {
  load(): Promise<ProviderModule>;
}

/** A provider definition of any variables and settings, as the table holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own types
export type AnyProviderDefinition = ProviderDefinition<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own types
export type AnyProviderSettings = ProviderSettings<any, any>;

export function defineProvider<V extends object, S>(
  definition: ProviderDefinition<V, S>,
): ProviderDefinition<V, S> {
  return definition;
}

/** `googleChat` → `google-chat`: the provider's folder under providers/ and stand-ins/. */
export function providerFolder(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function defineProviderSettings<V extends object, S>(
  definition: ProviderSettings<V, S>,
): ProviderSettings<V, S> {
  return definition;
}
