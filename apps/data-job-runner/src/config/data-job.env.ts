import {
  EnvBoolean,
  NamespaceScopes,
  Secret,
  upstreamId,
  type Credential,
  type EnvExtras,
  type EnvSource,
} from '@app/plugin-kit';
import { IsBoolean, IsGoDuration, IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { parseConnections, type Connections } from './connections.js';

/**
 * Admin configuration of the data-job sidecar. The unnamed connection of each provider is declared here (so
 * its secrets are known to the redactor); named ones (`DATABRICKS_PROD_HOST`, ...) are read by loadExtras.
 * All connection checks (required pairs, URLs) happen in parseConnections, so every problem is reported once.
 */
export class DataJobEnv implements EnvExtras {
  /** Workspace URL, e.g. https://adb-1234.5.azuredatabricks.net (the scheme defaults to https). */
  @IsOptional()
  @IsString()
  DATABRICKS_HOST?: string;

  @Secret()
  @IsOptional()
  @IsString()
  DATABRICKS_TOKEN?: string;

  /** Airflow web server base URL (the API lives under /api/v1 or /api/v2). */
  @IsOptional()
  @IsString()
  AIRFLOW_URL?: string;

  @IsOptional()
  @IsString()
  AIRFLOW_USERNAME?: string;

  @Secret()
  @IsOptional()
  @IsString()
  AIRFLOW_PASSWORD?: string;

  /** A bearer token instead of username/password (Astronomer, Composer, or a long-lived Airflow 3 JWT). */
  @Secret()
  @IsOptional()
  @IsString()
  AIRFLOW_TOKEN?: string;

  /** v1 (Airflow 2), v2 (Airflow 3) or auto (probe once per connection). */
  @IsOptional()
  @IsString()
  AIRFLOW_API_VERSION?: string;

  @IsOptional()
  @IsString()
  DBT_CLOUD_URL?: string;

  @IsOptional()
  @IsString()
  DBT_CLOUD_ACCOUNT_ID?: string;

  @Secret()
  @IsOptional()
  @IsString()
  DBT_CLOUD_API_TOKEN?: string;

  @IsOptional()
  @IsString()
  LIVY_URL?: string;

  @IsOptional()
  @IsString()
  LIVY_USERNAME?: string;

  @Secret()
  @IsOptional()
  @IsString()
  LIVY_PASSWORD?: string;

  /** Timeout of one upstream request; keep it well below the kit's 20 s call deadline. */
  @IsGoDuration({ min: '100ms', max: '15s' })
  UPSTREAM_TIMEOUT = '10s';

  /** On SIGTERM, cancel the runs this sidecar is still waiting for (see docs: off by default for a reason). */
  @EnvBoolean()
  @IsBoolean()
  CANCEL_ON_SHUTDOWN = false;

  /**
   * Which namespaces may use which connection: `databricks/prod=analytics,etl-*; airflow/*=etl`
   * (docs/data-job-runner.md). Unset: every connection is open to every namespace.
   */
  @IsOptional()
  @IsString()
  NAMESPACE_SCOPES?: string;

  /** Filled by loadExtras. */
  connections: Connections = {
    databricks: new Map(),
    airflow: new Map(),
    dbtCloud: new Map(),
    livy: new Map(),
  };

  /** Filled by loadExtras from NAMESPACE_SCOPES. */
  scopes = NamespaceScopes.unrestricted;

  loadExtras(source: EnvSource): string[] {
    const { connections, problems } = parseConnections(source);
    this.connections = connections;
    const configured = Object.fromEntries(
      Object.entries(connections).map(([kind, map]) => [kind, map.keys()]),
    );
    const scoped = NamespaceScopes.parse(this.NAMESPACE_SCOPES, {
      noun: 'connection',
      configured,
      normalize: upstreamId,
    });
    this.scopes = scoped.scopes;
    return [...problems, ...scoped.problems];
  }

  /** Every connection's credentials: a password is sent with its user (Basic, Airflow's token request). */
  credentials(): Credential[] {
    const { databricks, airflow, dbtCloud, livy } = this.connections;
    const token = (secret: string | undefined): Credential[] => (secret ? [{ secret }] : []);
    const login = (c: { username?: string; password?: string }): Credential[] =>
      c.password ? [{ secret: c.password, user: c.username }] : [];
    return [
      ...[...databricks.values()].flatMap((c) => token(c.token)),
      ...[...airflow.values()].flatMap((c) => [...token(c.token), ...login(c)]),
      ...[...dbtCloud.values()].flatMap((c) => token(c.token)),
      ...[...livy.values()].flatMap(login),
    ];
  }
}
