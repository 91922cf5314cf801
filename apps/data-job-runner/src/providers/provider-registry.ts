import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { DEFAULT_UPSTREAM, pickUpstream, Redactor, upstreamId, type UpstreamKind } from '@app/plugin-kit';
import type {
  AirflowConnection,
  DatabricksConnection,
  DbtCloudConnection,
  LivyConnection,
} from '../config/connections.js';
import { variableName } from '../config/connections.js';
import { DataJobEnv } from '../config/data-job.env.js';
import { AirflowClient } from './airflow/airflow-client.js';
import { AirflowProvider } from './airflow/airflow.provider.js';
import type { DataJobProvider } from './data-job-provider.js';
import { DatabricksProvider } from './databricks/databricks.provider.js';
import { DbtCloudProvider } from './dbt-cloud/dbt-cloud.provider.js';
import { LivyProvider } from './livy/livy.provider.js';
import { PROVIDER_NAMES, type ProviderName } from './provider-names.js';

/** What the admin sets for a connection, given the variable of each of its settings. */
const ENABLE: Record<ProviderName, (v: (setting: string) => string) => string> = {
  databricks: (v) => `${v('HOST')} and ${v('TOKEN')}`,
  airflow: (v) => `${v('URL')} and ${v('USERNAME')}/${v('PASSWORD')} or ${v('TOKEN')}`,
  dbtCloud: (v) => `${v('ACCOUNT_ID')} and ${v('API_TOKEN')}`,
  livy: (v) => v('URL'),
};

const KINDS = Object.fromEntries(
  PROVIDER_NAMES.map((provider) => {
    const enable = (name: string) => ENABLE[provider]((s) => variableName(provider, name, s));
    const kind: UpstreamKind = {
      provider,
      scope: provider,
      field: 'connection',
      enable: enable(DEFAULT_UPSTREAM),
      variablesFor: (name) => enable(name),
    };
    return [provider, kind];
  }),
) as Record<ProviderName, UpstreamKind>;

type Connection = DatabricksConnection | AirflowConnection | DbtCloudConnection | LivyConnection;

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
    const { connections, scopes } = this.env;
    const config = pickUpstream<Connection>(KINDS[provider], connections[provider], connection, {
      scopes,
      namespace,
    });
    const cacheKey = `${provider}/${upstreamId(connection)}`;
    const cached = this.providers.get(cacheKey);
    if (cached) return cached;
    const created = this.create(provider, config);
    this.providers.set(cacheKey, created);
    return created;
  }

  private create(provider: ProviderName, connection: Connection): DataJobProvider<unknown> {
    switch (provider) {
      case 'databricks':
        return new DatabricksProvider(
          connection as DatabricksConnection,
          this.timeoutMs,
        ) as DataJobProvider<unknown>;
      case 'airflow': {
        const c = connection as AirflowConnection;
        this.maskBasicAuth(c.username, c.password);
        return new AirflowProvider(
          new AirflowClient(c, this.timeoutMs, this.redactor),
        ) as DataJobProvider<unknown>;
      }
      case 'dbtCloud':
        return new DbtCloudProvider(
          connection as DbtCloudConnection,
          this.timeoutMs,
        ) as DataJobProvider<unknown>;
      case 'livy': {
        const c = connection as LivyConnection;
        this.maskBasicAuth(c.username, c.password);
        return new LivyProvider(c, this.timeoutMs) as DataJobProvider<unknown>;
      }
    }
  }

  /** The Authorization header form of a username/password (in case an upstream echoes it in an error). */
  private maskBasicAuth(username: string | undefined, password: string | undefined): void {
    if (username !== undefined && password !== undefined)
      this.redactor.add(Buffer.from(`${username}:${password}`).toString('base64'));
  }
}
