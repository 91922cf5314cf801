import { Inject, Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { ProviderClients, Redactor } from '@app/plugin-kit';
import { DataJobEnv } from '../config/data-job.env.js';
import type { DataJobProvider, DataJobProviderModule } from './data-job-provider.js';
import { PROVIDERS } from './index.js';

/** Each provider's Nest-free side, by key, as the module loaded them. */
export const PROVIDER_MODULES = Symbol.for('data-job-runner.provider-modules');
export type ProviderModules = ReadonlyMap<string, DataJobProviderModule<unknown>>;

/**
 * The providers of the connections the admin configured, created on first use and kept (they hold HTTP
 * agents, Airflow's API version and JWT). A body can only choose among them by name.
 */
@Injectable()
export class ProviderRegistry {
  private readonly clients: ProviderClients<DataJobProvider<unknown>>;

  constructor(
    private readonly env: DataJobEnv,
    redactor: Redactor,
    @Inject(PROVIDER_MODULES) modules: ProviderModules,
  ) {
    const context = { timeoutMs: parseDuration(env.UPSTREAM_TIMEOUT), redactor };
    this.clients = new ProviderClients(
      PROVIDERS,
      (key) => env.connectionsOf(key),
      (key, connection) => modules.get(key)!.create(connection, context),
    );
  }

  /**
   * The provider for a body from a workflow of `namespace`; a PluginConfigError (node Failed) for an
   * unconfigured provider, an unknown connection or one not open to the namespace (NAMESPACE_SCOPES): the last
   * two read the same and list only the connections the namespace may use.
   */
  get(provider: string, connection: string | undefined, namespace: string): DataJobProvider<unknown> {
    return this.clients.get(provider, connection, { scopes: this.env.scopes, namespace });
  }
}
