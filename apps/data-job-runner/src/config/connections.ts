import { DEFAULT_CONNECTION, type ProviderName } from '../providers/provider-names.js';

export type EnvSource = Record<string, string | undefined>;

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

/** Variable stem and field suffixes per provider: `DATABRICKS_HOST`, `DATABRICKS_<NAME>_HOST`, ... */
const VARIABLES: Record<ProviderName, { prefix: string; fields: readonly string[] }> = {
  databricks: { prefix: 'DATABRICKS_', fields: ['HOST', 'TOKEN'] },
  airflow: { prefix: 'AIRFLOW_', fields: ['URL', 'USERNAME', 'PASSWORD', 'TOKEN', 'API_VERSION'] },
  dbtCloud: { prefix: 'DBT_CLOUD_', fields: ['URL', 'ACCOUNT_ID', 'API_TOKEN'] },
  livy: { prefix: 'LIVY_', fields: ['URL', 'USERNAME', 'PASSWORD'] },
};

/** `prod-eu` and `PROD_EU` name the same connection. */
export function connectionId(name: string | undefined): string {
  return name === undefined || name === '' ? DEFAULT_CONNECTION : name.toLowerCase().replace(/-/g, '_');
}

/** The variable name of a field: `DATABRICKS_HOST` for the default connection, `DATABRICKS_PROD_HOST` else. */
export function variableName(provider: ProviderName, connection: string, field: string): string {
  const { prefix } = VARIABLES[provider];
  return connection === DEFAULT_CONNECTION
    ? `${prefix}${field}`
    : `${prefix}${connection.toUpperCase()}_${field}`;
}

type Raw = Map<string, Record<string, string>>;

/**
 * Groups the set variables by provider and connection name; the longest matching field suffix wins. Values
 * are trimmed: a Secret made with `--from-file` ends in a newline, which is no part of the credential.
 */
function collect(source: EnvSource): Record<ProviderName, Raw> {
  const out = { databricks: new Map(), airflow: new Map(), dbtCloud: new Map(), livy: new Map() } as Record<
    ProviderName,
    Raw
  >;
  for (const [name, given] of Object.entries(source)) {
    const value = given?.trim();
    if (value === undefined || value === '') continue;
    for (const provider of Object.keys(VARIABLES) as ProviderName[]) {
      const { prefix, fields } = VARIABLES[provider];
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      const field = [...fields]
        .sort((a, b) => b.length - a.length)
        .find((f) => rest === f || rest.endsWith(`_${f}`));
      if (!field) continue;
      const stem = rest === field ? '' : rest.slice(0, -field.length - 1);
      // Kubernetes service links: a Service called `databricks` gives the pod DATABRICKS_SERVICE_HOST.
      if (field === 'HOST' && /(^|_)SERVICE$/.test(stem)) continue;
      if (stem !== '' && !/^[A-Z0-9][A-Z0-9_]*$/.test(stem)) continue;
      const connection = stem === '' ? DEFAULT_CONNECTION : stem.toLowerCase();
      const fieldsOf = out[provider].get(connection) ?? {};
      fieldsOf[field] = value;
      out[provider].set(connection, fieldsOf);
    }
  }
  return out;
}

/** Checks an admin-configured base URL; returns it without trailing slashes. */
export function checkBaseUrl(
  value: string,
  variable: string,
  problems: string[],
  defaultScheme?: string,
): string {
  const text =
    defaultScheme && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? `${defaultScheme}://${value}` : value;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.push(`${variable}: must be an http(s) URL`);
    return text;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    problems.push(`${variable}: must be an http(s) URL`);
  else if (url.username || url.password)
    problems.push(
      `${variable}: must not carry credentials (use the *_USERNAME/*_PASSWORD/*_TOKEN variables)`,
    );
  else if (url.search || url.hash) problems.push(`${variable}: must not have a query or fragment`);
  return text.replace(/\/+$/, '');
}

function requireAll(
  provider: ProviderName,
  connection: string,
  fields: Record<string, string>,
  required: string[],
  problems: string[],
): boolean {
  const missing = required.filter((f) => fields[f] === undefined);
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
  if ((fields[a] === undefined) !== (fields[b] === undefined)) {
    const [set, unset] = fields[a] === undefined ? [b, a] : [a, b];
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
  const raw = collect(source);
  const problems: string[] = [];
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
    const host = checkBaseUrl(f.HOST, v('databricks', name, 'HOST'), problems, 'https');
    connections.databricks.set(name, { host, token: f.TOKEN });
  }

  for (const [name, f] of raw.airflow) {
    if (!requireAll('airflow', name, f, ['URL'], problems)) continue;
    const url = checkBaseUrl(f.URL, v('airflow', name, 'URL'), problems);
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
    if (f.ACCOUNT_ID === undefined && f.API_TOKEN === undefined && name === DEFAULT_CONNECTION) continue;
    if (!requireAll('dbtCloud', name, f, ['ACCOUNT_ID', 'API_TOKEN'], problems)) continue;
    const url = checkBaseUrl(f.URL ?? DBT_CLOUD_DEFAULT_URL, v('dbtCloud', name, 'URL'), problems);
    if (!/^\d+$/.test(f.ACCOUNT_ID)) problems.push(`${v('dbtCloud', name, 'ACCOUNT_ID')}: must be a number`);
    connections.dbtCloud.set(name, { url, accountId: f.ACCOUNT_ID, token: f.API_TOKEN });
  }

  for (const [name, f] of raw.livy) {
    if (!requireAll('livy', name, f, ['URL'], problems)) continue;
    const url = checkBaseUrl(f.URL, v('livy', name, 'URL'), problems);
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
