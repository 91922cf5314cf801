import {
  EnvBoolean,
  NamespaceScopes,
  type Credential,
  upstreamId,
  type EnvExtras,
  type EnvSource,
  type UpstreamsEnv,
} from '@app/plugin-kit';
import { IsBoolean, IsGoDuration, IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { PROVIDERS, type ServerDirectory } from '../providers/index.js';

/**
 * The providers' variables with a default (GITHUB_API_URL, GITLAB_URL, GITHUB_RUN_LOOKUP_TIMEOUT): set alone,
 * they configure no server.
 * From the table, so a new CI system's defaulted URL needs no line here.
 */
export const WITH_DEFAULTS: ReadonlySet<string> = new Set(
  PROVIDERS.providers.flatMap((p) =>
    Object.entries(new (p.variables(class {}))() as Record<string, unknown>)
      .filter(([, value]) => value !== undefined)
      .map(([name]) => name),
  ),
);

const enables = PROVIDERS.providers.map((p) => p.enable);
const NO_SERVER = `no build server configured: set ${enables.slice(0, -1).join(', ')}, or ${enables.at(-1)} (or their named JENKINS_<NAME>_* ... forms)`;

/** Every CI system's variables (the default server's), one on top of the other. */
const ProviderVariables = PROVIDERS.variables();

/**
 * Admin configuration of the build sidecar: each CI system's variables (providers/<provider>/<provider>-settings.ts)
 * and the ones they share. Credentials come from Secrets (secretKeyRef) only; the workflow body can choose a
 * configured server by name, never a host or a credential.
 */
export class BuildTriggerEnv extends ProviderVariables implements EnvExtras, UpstreamsEnv {
  /** Cancel the builds this sidecar is following when it receives SIGTERM (off: a restart must not kill builds). */
  @EnvBoolean()
  @IsBoolean()
  CANCEL_ON_SHUTDOWN = false;

  /** Longest a single upstream request may take (keep it well below the kit's 20s call deadline). */
  @IsGoDuration({ min: '100ms', max: '15s' })
  UPSTREAM_TIMEOUT = '10s';

  /**
   * Which namespaces may use which server: `jenkins/prod=release,ci; github/*=ci-*` (docs/build-trigger.md).
   * Unset: every server is open to every namespace.
   */
  @IsOptional()
  @IsString()
  NAMESPACE_SCOPES?: string;

  /** Each CI system's servers, by key. Filled by loadExtras. */
  private settings: ReadonlyMap<string, unknown> = new Map();

  /** Filled by loadExtras from NAMESPACE_SCOPES. */
  scopes = NamespaceScopes.unrestricted;

  /** The default and named servers, by CI system. */
  get servers(): ServerDirectory {
    return Object.fromEntries(this.settings) as ServerDirectory;
  }

  /** The servers of CI system `key`, by name. */
  upstreamsOf(key: string): ReadonlyMap<string, unknown> {
    return this.settings.get(key) as ReadonlyMap<string, unknown>;
  }

  loadExtras(source: EnvSource): string[] {
    const { settings, problems, destinations } = PROVIDERS.read(this, source);
    this.settings = settings;
    // Only when no credential was even given: a bad variable has its own problem already.
    const tried = Object.entries(source).some(
      ([name, value]) =>
        value && PROVIDERS.prefixes.some((p) => name.startsWith(p)) && !WITH_DEFAULTS.has(name),
    );
    if (PROVIDERS.configured(settings).length === 0 && !tried) problems.push(NO_SERVER);
    const scoped = NamespaceScopes.parse(this.NAMESPACE_SCOPES, {
      noun: 'server',
      configured: destinations,
      normalize: upstreamId,
    });
    this.scopes = scoped.scopes;
    return [...problems, ...scoped.problems];
  }

  /** Every server's credentials: a Jenkins token is sent with its user (Basic), the others alone. */
  credentials(): Credential[] {
    return PROVIDERS.credentials(this.settings);
  }
}
