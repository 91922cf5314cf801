import {
  EnvBoolean,
  NamespaceScopes,
  upstreamId,
  type Credential,
  type EnvExtras,
  type EnvSource,
  type UpstreamsEnv,
} from '@app/plugin-kit';
import { IsBoolean, IsGoDuration, IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { PROVIDERS, type Connections } from '../providers/index.js';

const enables = PROVIDERS.providers.map((p) => p.enable);
const NO_UPSTREAM = `no upstream configured: set ${enables.slice(0, -1).join(', ')} or ${enables.at(-1)}`;

/**
 * Reads every provider's connections from the environment: the unnamed one (`DATABRICKS_HOST`) and named ones
 * (`DATABRICKS_PROD_HOST`, chosen in a body by `connection: prod`). Returns the problems, each naming the
 * variable; values of secrets never appear in them.
 */
export function parseConnections(source: EnvSource): {
  connections: Connections;
  settings: ReadonlyMap<string, unknown>;
  destinations: Record<string, Iterable<string>>;
  problems: string[];
} {
  const { settings, problems, destinations } = PROVIDERS.read({}, source);
  if (PROVIDERS.configured(settings).length === 0 && problems.length === 0) problems.push(NO_UPSTREAM);
  const connections = Object.fromEntries(settings) as Connections;
  return { connections, settings, destinations, problems };
}

/** Every provider's variables (the default connection's), one on top of the other. */
const ProviderVariables = PROVIDERS.variables();

/**
 * Admin configuration of the data-job sidecar: each provider's variables (providers/<provider>/<provider>-settings.ts,
 * the unnamed connection's, so that its secrets are known to the redactor) and the ones they share; named
 * connections (`DATABRICKS_PROD_HOST`, ...) are read by loadExtras. All connection checks (required pairs, URLs)
 * happen in the providers' settings readers, so every problem is reported once.
 */
export class DataJobEnv extends ProviderVariables implements EnvExtras, UpstreamsEnv {
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

  /** Each provider's connections, by key. Filled by loadExtras. */
  private settings: ReadonlyMap<string, unknown> = new Map();

  /** Filled by loadExtras from NAMESPACE_SCOPES. */
  scopes = NamespaceScopes.unrestricted;

  loadExtras(source: EnvSource): string[] {
    const { settings, destinations, problems } = parseConnections(source);
    this.settings = settings;
    const scoped = NamespaceScopes.parse(this.NAMESPACE_SCOPES, {
      noun: 'connection',
      configured: destinations,
      normalize: upstreamId,
    });
    this.scopes = scoped.scopes;
    return [...problems, ...scoped.problems];
  }

  /** Each provider's connections, by key (`default` for the unnamed one). */
  get connections(): Connections {
    return Object.fromEntries(this.settings) as Connections;
  }

  /** The connections of provider `key`, by name. */
  upstreamsOf(key: string): ReadonlyMap<string, unknown> {
    return this.settings.get(key) as ReadonlyMap<string, unknown>;
  }

  /** Every connection's credentials: a password is sent with its user (Basic, Airflow's token request). */
  credentials(): Credential[] {
    return PROVIDERS.credentials(this.settings);
  }
}
