import { Inject, type Provider, type Type } from '@nestjs/common';
import type { NamespaceScopes } from '../config/namespace-scopes.js';
import { PluginLogger } from '../logging/plugin-logger.js';
import { Redactor } from '../logging/redactor.js';

/**
 * What a provider's Nest side is given, in place of the plugin's env: its own settings, the namespaces each of
 * its upstreams is open to, the timeout of one upstream request, the redactor for its credentials, a logger.
 */
export interface ProviderContext<S = unknown> {
  key: string;
  settings: S;
  scopes: NamespaceScopes;
  timeoutMs: number;
  redactor: Redactor;
  logger: PluginLogger;
}

/** The Nest token of a provider's context. */
export function providerContextToken(key: string): symbol {
  return Symbol.for(`plugin-kit.provider-context.${key}`);
}

/** A constructor parameter that receives the context of provider `key`. */
export function InjectProviderContext(key: string): PropertyDecorator & ParameterDecorator {
  return Inject(providerContextToken(key));
}

/** What the plugin's env gives each provider's context: its settings, the scopes, the request timeout. */
export type ContextShare = Pick<ProviderContext, 'settings' | 'scopes' | 'timeoutMs'>;

export function providerContext<S>(
  key: string,
  share: ContextShare,
  redactor: Redactor,
  logger: PluginLogger,
): ProviderContext<S> {
  return { key, ...share, redactor, logger } as ProviderContext<S>;
}

/** The Nest providers of the contexts of `keys`, each made from the plugin's env (as the kit provides it). */
export function provideProviderContexts<E>(
  keys: readonly string[],
  envClass: Type<E>,
  share: (env: E, key: string) => ContextShare,
): Provider[] {
  return keys.map((key) => ({
    provide: providerContextToken(key),
    useFactory: (env: E, redactor: Redactor, logger: PluginLogger) =>
      providerContext(key, share(env, key), redactor, logger),
    inject: [envClass, Redactor, PluginLogger],
  }));
}
