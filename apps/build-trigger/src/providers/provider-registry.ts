import { Inject, Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { ProviderClients } from '@app/plugin-kit';
import type { BuildProvider, BuildProviderModule } from '../build/build-provider.js';
import { BuildTriggerEnv } from '../config/build-trigger.env.js';
import { PROVIDERS } from './index.js';

/** Each CI system's Nest-free side, by key, as the module loaded them. */
export const PROVIDER_MODULES = Symbol.for('build-trigger.provider-modules');
export type ProviderModules = ReadonlyMap<string, BuildProviderModule<unknown>>;

/**
 * The configured servers as providers, one instance per (provider, server), created on first use. A body
 * can only pick a server by name: hosts and credentials come from the sidecar environment.
 */
@Injectable()
export class ProviderRegistry {
  private readonly clients: ProviderClients<BuildProvider>;

  constructor(
    private readonly env: BuildTriggerEnv,
    @Inject(PROVIDER_MODULES) modules: ProviderModules,
  ) {
    const context = { timeoutMs: parseDuration(env.UPSTREAM_TIMEOUT), variables: env };
    this.clients = new ProviderClients(
      PROVIDERS,
      (key) => env.serversOf(key),
      (key, server) => modules.get(key)!.create(server, context),
    );
  }

  /**
   * The provider for a body from a workflow of `namespace`; PluginConfigError when that provider or server is
   * not configured, or not open to the namespace (NAMESPACE_SCOPES). Both read the same, and list only the
   * servers the namespace may use: an author learns no other server's name.
   */
  get(provider: string, server: string | undefined, namespace: string): BuildProvider {
    return this.clients.get(provider, server, { scopes: this.env.scopes, namespace });
  }
}
