import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { PluginConfigError, Redactor } from '@app/plugin-kit';
import { connectionId, variableName } from '../config/connections.js';
import { DataJobEnv } from '../config/data-job.env.js';
import { AirflowClient } from './airflow/airflow-client.js';
import { AirflowProvider } from './airflow/airflow.provider.js';
import type { DataJobProvider } from './data-job-provider.js';
import { DatabricksProvider } from './databricks/databricks.provider.js';
import { DbtCloudProvider } from './dbt-cloud/dbt-cloud.provider.js';
import { LivyProvider } from './livy/livy.provider.js';
import { DEFAULT_CONNECTION, type ProviderName } from './provider-names.js';

const REQUIRED: Record<ProviderName, string[]> = {
  databricks: ['HOST', 'TOKEN'],
  airflow: ['URL', 'USERNAME/PASSWORD or TOKEN'],
  dbtCloud: ['ACCOUNT_ID', 'API_TOKEN'],
  livy: ['URL'],
};

/**
 * The providers of the connections the admin configured, created on first use and kept (they hold HTTP
 * agents, Airflow's API version and JWT). A body can only choose among them by name.
 */
@Injectable()
export class ProviderRegistry {
  private readonly providers = new Map<string, DataJobProvider<unknown>>();
  private readonly timeoutMs: number;

  constructor(
    private readonly env: DataJobEnv,
    private readonly redactor: Redactor,
  ) {
    this.timeoutMs = parseDuration(env.UPSTREAM_TIMEOUT);
  }

  /**
   * The provider for a body from a workflow of `namespace`; a PluginConfigError (node Failed) for an
   * unconfigured provider, an unknown connection or one not open to the namespace (NAMESPACE_SCOPES): the last
   * two read the same and list only the connections the namespace may use.
   */
  get(provider: ProviderName, connection: string | undefined, namespace: string): DataJobProvider<unknown> {
    const id = connectionId(connection);
    const { connections, scopes } = this.env;
    if (!scopes.allows(provider, id, namespace)) this.missing(provider, id, connections[provider], namespace);
    const cacheKey = `${provider}/${id}`;
    const cached = this.providers.get(cacheKey);
    if (cached) return cached;
    const created = this.create(provider, id, namespace);
    this.providers.set(cacheKey, created);
    return created;
  }

  private create(provider: ProviderName, id: string, namespace: string): DataJobProvider<unknown> {
    const { connections } = this.env;
    switch (provider) {
      case 'databricks': {
        const c =
          connections.databricks.get(id) ?? this.missing(provider, id, connections.databricks, namespace);
        return new DatabricksProvider(c, this.timeoutMs) as DataJobProvider<unknown>;
      }
      case 'airflow': {
        const c = connections.airflow.get(id) ?? this.missing(provider, id, connections.airflow, namespace);
        return new AirflowProvider(
          new AirflowClient(c, this.timeoutMs, this.redactor),
        ) as DataJobProvider<unknown>;
      }
      case 'dbtCloud': {
        const c = connections.dbtCloud.get(id) ?? this.missing(provider, id, connections.dbtCloud, namespace);
        return new DbtCloudProvider(c, this.timeoutMs) as DataJobProvider<unknown>;
      }
      case 'livy': {
        const c = connections.livy.get(id) ?? this.missing(provider, id, connections.livy, namespace);
        return new LivyProvider(c, this.timeoutMs) as DataJobProvider<unknown>;
      }
    }
  }

  private missing(
    provider: ProviderName,
    id: string,
    configured: Map<string, unknown>,
    namespace: string,
  ): never {
    const names = this.env.scopes.allowed(provider, configured.keys(), namespace);
    if (id === DEFAULT_CONNECTION) {
      const hint = names.length > 0 ? `; choose a connection: ${names.join(', ')}` : '';
      const vars = REQUIRED[provider].map((f) => variableName(provider, id, f)).join(' and ');
      throw new PluginConfigError(
        configured.size === 0
          ? `${provider} is not configured in this sidecar (the admin sets ${vars})`
          : `connection: no default ${provider} connection for namespace ${namespace} (the admin sets ${vars})${hint}`,
      );
    }
    const known = names.length > 0 ? names.join(', ') : 'none';
    throw new PluginConfigError(
      `connection: no ${provider} connection named "${id}" for namespace ${namespace} (available: ${known})`,
    );
  }
}
