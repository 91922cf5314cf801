import {
  DEFAULT_UPSTREAM,
  readUpstreams,
  upstreamVariable,
  type EnvSource,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { missingSettings, urlSetting } from '@app/plugin-kit/config/settings-checks.js';
import { PROVIDER_NAMES, type ProviderName } from '../providers/provider-names.js';

export interface DatabricksConnection {
  host: string;
  token: string;
}

export type AirflowApiVersion = 'v1' | 'v2' | 'auto';

export interface AirflowConnection {
  url: string;
  username?: string;
  password?: string;
  token?: string;
  apiVersion: AirflowApiVersion;
}

export interface DbtCloudConnection {
  url: string;
  accountId: string;
  token: string;
}

export interface LivyConnection {
  url: string;
  username?: string;
  password?: string;
}

/** Every upstream the admin configured, by provider and connection name (`default` for the unnamed one). */
export interface Connections {
  databricks: Map<string, DatabricksConnection>;
  airflow: Map<string, AirflowConnection>;
  dbtCloud: Map<string, DbtCloudConnection>;
  livy: Map<string, LivyConnection>;
}

export const DBT_CLOUD_DEFAULT_URL = 'https://cloud.getdbt.com';

/** The variables of each provider's connections: `DATABRICKS_HOST`, `DATABRICKS_<NAME>_HOST`, ... */
export const CONNECTION_FAMILIES: Record<ProviderName, UpstreamFamily> = {
  databricks: { prefix: 'DATABRICKS', settings: ['HOST', 'TOKEN'] },
  airflow: { prefix: 'AIRFLOW', settings: ['URL', 'USERNAME', 'PASSWORD', 'TOKEN', 'API_VERSION'] },
  dbtCloud: { prefix: 'DBT_CLOUD', settings: ['URL', 'ACCOUNT_ID', 'API_TOKEN'] },
  livy: { prefix: 'LIVY', settings: ['URL', 'USERNAME', 'PASSWORD'] },
};

/** The variable name of a field: `DATABRICKS_HOST` for the default connection, `DATABRICKS_PROD_HOST` else. */
export function variableName(provider: ProviderName, connection: string, field: string): string {
  return upstreamVariable(CONNECTION_FAMILIES[provider], connection, field);
}

/** A connection's base URL: http(s), without credentials (they have their own variables), query or fragment. */
function baseUrl(value: string, variable: string, problems: string[], defaultScheme?: 'https'): string {
  return (
    urlSetting(variable, value, problems, { defaultScheme, noCredentials: true, noQuery: true }) ??
    value.replace(/\/+$/, '')
  );
}

function requireAll(
  provider: ProviderName,
  connection: string,
  fields: Record<string, string>,
  required: string[],
  problems: string[],
): boolean {
  const missing = missingSettings(fields, required);
  for (const f of missing) {
    const given = Object.keys(fields).map((g) => variableName(provider, connection, g));
    problems.push(
      `${variableName(provider, connection, f)}: must be set (${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set)`,
    );
  }
  return missing.length === 0;
}

function pairOrNone(
  provider: ProviderName,
  connection: string,
  fields: Record<string, string>,
  a: string,
  b: string,
  problems: string[],
): void {
  const [unset] = missingSettings({ [a]: fields[a], [b]: fields[b] }, [a, b]);
  if (unset !== undefined) {
    const set = unset === a ? b : a;
    problems.push(
      `${variableName(provider, connection, unset)}: must be set together with ${variableName(provider, connection, set)}`,
    );
  }
}

/**
 * Reads every provider connection from the environment: the unnamed one (`DATABRICKS_HOST`) and named ones
 * (`DATABRICKS_PROD_HOST`, chosen in a body by `connection: prod`). Returns the problems, each naming the
 * variable; values of secrets never appear in them.
 */
export function parseConnections(source: EnvSource): { connections: Connections; problems: string[] } {
  const problems: string[] = [];
  const raw = Object.fromEntries(
    PROVIDER_NAMES.map((provider) => {
      const read = readUpstreams(source, CONNECTION_FAMILIES[provider]);
      problems.push(...read.problems);
      const fields = [...read.upstreams].map(
        ([name, u]) => [name, u.values as Record<string, string>] as const,
      );
      return [provider, new Map(fields)];
    }),
  ) as Record<ProviderName, Map<string, Record<string, string>>>;
  const connections: Connections = {
    databricks: new Map(),
    airflow: new Map(),
    dbtCloud: new Map(),
    livy: new Map(),
  };
  const v = (provider: ProviderName, connection: string, field: string): string =>
    variableName(provider, connection, field);

  for (const [name, f] of raw.databricks) {
    if (!requireAll('databricks', name, f, ['HOST', 'TOKEN'], problems)) continue;
    const host = baseUrl(f.HOST, v('databricks', name, 'HOST'), problems, 'https');
    connections.databricks.set(name, { host, token: f.TOKEN });
  }

  for (const [name, f] of raw.airflow) {
    if (!requireAll('airflow', name, f, ['URL'], problems)) continue;
    const url = baseUrl(f.URL, v('airflow', name, 'URL'), problems);
    pairOrNone('airflow', name, f, 'USERNAME', 'PASSWORD', problems);
    const hasPair = f.USERNAME !== undefined && f.PASSWORD !== undefined;
    if (hasPair && f.TOKEN !== undefined) {
      problems.push(
        `${v('airflow', name, 'TOKEN')}: set either it or ${v('airflow', name, 'USERNAME')}/${v('airflow', name, 'PASSWORD')}, not both`,
      );
    } else if (f.TOKEN === undefined && f.USERNAME === undefined && f.PASSWORD === undefined) {
      problems.push(
        `${v('airflow', name, 'USERNAME')}/${v('airflow', name, 'PASSWORD')} or ${v('airflow', name, 'TOKEN')}: must be set`,
      );
    }
    const apiVersion = (f.API_VERSION ?? 'auto').toLowerCase();
    if (!['v1', 'v2', 'auto'].includes(apiVersion))
      problems.push(`${v('airflow', name, 'API_VERSION')}: must be one of v1, v2, auto`);
    connections.airflow.set(name, {
      url,
      username: f.USERNAME,
      password: f.PASSWORD,
      token: f.TOKEN,
      apiVersion: apiVersion as AirflowApiVersion,
    });
  }

  for (const [name, f] of raw.dbtCloud) {
    // DBT_CLOUD_URL alone (its default spelled out) configures nothing.
    if (f.ACCOUNT_ID === undefined && f.API_TOKEN === undefined && name === DEFAULT_UPSTREAM) continue;
    if (!requireAll('dbtCloud', name, f, ['ACCOUNT_ID', 'API_TOKEN'], problems)) continue;
    const url = baseUrl(f.URL ?? DBT_CLOUD_DEFAULT_URL, v('dbtCloud', name, 'URL'), problems);
    if (!/^\d+$/.test(f.ACCOUNT_ID)) problems.push(`${v('dbtCloud', name, 'ACCOUNT_ID')}: must be a number`);
    connections.dbtCloud.set(name, { url, accountId: f.ACCOUNT_ID, token: f.API_TOKEN });
  }

  for (const [name, f] of raw.livy) {
    if (!requireAll('livy', name, f, ['URL'], problems)) continue;
    const url = baseUrl(f.URL, v('livy', name, 'URL'), problems);
    pairOrNone('livy', name, f, 'USERNAME', 'PASSWORD', problems);
    connections.livy.set(name, { url, username: f.USERNAME, password: f.PASSWORD });
  }

  const configured = Object.values(connections).reduce((n, m: Map<string, unknown>) => n + m.size, 0);
  if (configured === 0 && problems.length === 0) {
    problems.push(
      'no upstream configured: set DATABRICKS_HOST+DATABRICKS_TOKEN, AIRFLOW_URL (+ credentials), DBT_CLOUD_ACCOUNT_ID+DBT_CLOUD_API_TOKEN or LIVY_URL',
    );
  }
  return { connections, problems };
}
