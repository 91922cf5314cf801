import type { FactoryProvider, Type } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import type { ConfigClass } from '../execution/plugin-handler.js';
import type { NamespaceScopes } from '../config/namespace-scopes.js';
import type { UpstreamKind } from '../config/named-upstreams.js';
import { Redactor } from '../logging/redactor.js';
import { ProviderClients } from './provider-clients.js';
import type { ProviderDefinition } from './provider-definition.js';
import { loadProviderModules, type ProviderTable } from './provider-table.js';

/** What a provider's module is given to make the client of one upstream. */
export interface UpstreamContext<V = object> {
  /** The timeout of one upstream request (UPSTREAM_TIMEOUT). */
  timeoutMs: number;
  redactor: Redactor;
  /** The plugin's env: the provider's own variables (its timeouts) among them. */
  variables: V;
}

/**
 * A provider's Nest-free side, loaded with the plugin's module on the first own call. `X`: the part of the
 * context the plugin's providers read (the whole context is given).
 */
export interface UpstreamProviderModule<
  U,
  C,
  X extends Partial<UpstreamContext<unknown>> = UpstreamContext,
  B extends object = object,
> {
  /** The class of its block in the body (class-validator rules, a static `problems`): the body class's part. */
  block: ConfigClass<B>;
  /** The client of one upstream the admin configured (a server, a connection). */
  create(upstream: U, context: X): C;
}

/**
 * A provider whose upstreams the admin names (`JENKINS_PROD_URL`, `DATABRICKS_PROD_HOST`) and a body chooses
 * by name (`server: prod`, `connection: prod`): its settings are its upstreams by name.
 */
export interface UpstreamProviderDefinition<
  V extends object = object,
  U = unknown,
  M = unknown,
> extends ProviderDefinition<V, Map<string, U>, M> {
  upstreams: UpstreamKind;
}

/** A body's provider blocks, by key of the table's `definitions`: each of the class its module's `block` is. */
export type ProviderBlocksOf<D> = {
  [K in keyof D]?: D[K] extends { load(): Promise<{ block: ConfigClass<infer B> }> } ? B : never;
};

/** What the plugin's env gives the providers: the request timeout, the scopes, each provider's upstreams. */
export interface UpstreamsEnv {
  UPSTREAM_TIMEOUT: string;
  scopes: NamespaceScopes;
  /** The upstreams of provider `key`, by name (`default` for the unnamed one). */
  upstreamsOf(key: string): ReadonlyMap<string, unknown>;
}

/** The provider a body chose: its key, its validated block and the client of the upstream it named. */
export interface PickedProvider<C> {
  key: string;
  block: object;
  client: C;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own variables and upstreams
type AnyUpstreamProvider = UpstreamProviderDefinition<any, any, UpstreamProviderModule<any, unknown, any>>;
type AnyUpstreamModule<C> = UpstreamProviderModule<unknown, C, UpstreamContext<unknown>>;

/**
 * The clients of the upstreams the admin configured, one per (provider, upstream), created on first use and
 * kept (they hold HTTP agents, tokens). A body can only choose among them by name: hosts and credentials come
 * from the sidecar's environment.
 */
export class UpstreamProviders<C> {
  private readonly clients: ProviderClients<C>;

  constructor(
    private readonly table: ProviderTable<AnyUpstreamProvider>,
    private readonly env: UpstreamsEnv,
    modules: ReadonlyMap<string, AnyUpstreamModule<C>>,
    redactor: Redactor,
  ) {
    const context = { timeoutMs: parseDuration(env.UPSTREAM_TIMEOUT), redactor, variables: env };
    this.clients = new ProviderClients(
      table,
      (key) => env.upstreamsOf(key),
      (key, upstream) => modules.get(key)!.create(upstream, context),
    );
  }

  /**
   * The one provider block of a validated body and the client of the upstream `requested` (the default one when
   * absent), for a workflow of `namespace`. A PluginConfigError (node Failed) for none or several blocks, a
   * block's own problems, an unconfigured provider, an unknown upstream or one not open to the namespace
   * (NAMESPACE_SCOPES): the last two read the same and list only the upstreams the namespace may use.
   */
  pick(body: object, requested: string | undefined, namespace: string): PickedProvider<C> {
    const { key, block } = this.table.pickBlock(body);
    const client = this.clients.get(key, requested, { scopes: this.env.scopes, namespace });
    return { key, block, client };
  }
}

/** The Nest provider of a plugin's UpstreamProviders, its providers' modules loaded (once) first. */
export async function provideUpstreamProviders(
  table: ProviderTable<AnyUpstreamProvider>,
  envClass: Type<UpstreamsEnv>,
): Promise<FactoryProvider<UpstreamProviders<unknown>>> {
  const modules = (await loadProviderModules(table)) as Map<string, AnyUpstreamModule<unknown>>;
  return {
    provide: UpstreamProviders,
    useFactory: (env: UpstreamsEnv, redactor: Redactor) =>
      new UpstreamProviders(table, env, modules, redactor),
    inject: [envClass, Redactor],
  };
}
