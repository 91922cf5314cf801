import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { DEFAULT_UPSTREAM, Redactor, UpstreamClients, type UpstreamKind } from '@app/plugin-kit';
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

/**
 * The providers of the connections the admin configured, created on first use and kept (they hold HTTP
 * agents, Airflow's API version and JWT). A body can only choose among them by name.
 */
@Injectable()
export class ProviderRegistry {
  private readonly providers: Record<
    ProviderName,
    Pick<UpstreamClients<unknown, DataJobProvider<unknown>>, 'get'>
  >;

  constructor(
    private readonly env: DataJobEnv,
    private readonly redactor: Redactor,
  ) {
    const timeoutMs = parseDuration(env.UPSTREAM_TIMEOUT);
    const { connections } = env;
    const clients = <C>(provider: ProviderName, configured: Map<string, C>, create: (c: C) => unknown) =>
      new UpstreamClients(KINDS[provider], configured, (c: C) => create(c) as DataJobProvider<unknown>);
    this.providers = {
      databricks: clients('databricks', connections.databricks, (c) => new DatabricksProvider(c, timeoutMs)),
      airflow: clients(
        'airflow',
        connections.airflow,
        (c) => new AirflowProvider(new AirflowClient(c, timeoutMs, this.redactor)),
      ),
      dbtCloud: clients('dbtCloud', connections.dbtCloud, (c) => new DbtCloudProvider(c, timeoutMs)),
      livy: clients('livy', connections.livy, (c) => new LivyProvider(c, timeoutMs)),
    };
  }

  /**
   * The provider for a body from a workflow of `namespace`; a PluginConfigError (node Failed) for an
   * unconfigured provider, an unknown connection or one not open to the namespace (NAMESPACE_SCOPES): the last
   * two read the same and list only the connections the namespace may use.
   */
  get(provider: ProviderName, connection: string | undefined, namespace: string): DataJobProvider<unknown> {
    return this.providers[provider].get(connection, { scopes: this.env.scopes, namespace });
  }
}
