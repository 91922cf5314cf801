import {
  NamespaceScopes,
  upstreamId,
  type EnvExtras,
  type EnvSource,
  type ReadsFormerNames,
} from '@app/plugin-kit';
import { IsGoDuration, IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import type { EnvClass, ProviderSettings } from '../providers/provider-definition.js';
import { PROVIDER_SETTINGS } from '../providers/provider-table.js';

/** Every provider's variables, one on top of the other. */
const ProviderVariables = PROVIDER_SETTINGS.reduce<EnvClass>(
  (base, provider) => provider.variables(base),
  class {},
);

/**
 * Admin configuration of the notifier sidecar (from the pod env; credentials only through secretKeyRef): each
 * provider's variables (providers/<provider>/<provider>-settings.ts) and the ones they share. A provider is
 * enabled by its settings alone; at least one must be. Workflow authors choose a destination by name (a Slack
 * workspace, a Mattermost server, a webhook), never a token or a URL.
 */
export class NotifierEnv extends ProviderVariables implements EnvExtras, ReadsFormerNames {
  /** Timeout of one request to Mattermost, Discord, PagerDuty and the other HTTP providers. */
  @IsGoDuration({ min: '100ms', max: '15s' })
  NOTIFY_REQUEST_TIMEOUT = '8s';

  /**
   * Which namespaces may use which destination, one kind per provider (its key under `notify`):
   * `slack/ops=team-ops,sre-*; pagerduty/default=prod-*` (docs/install.md). Unset: every destination is open
   * to every namespace.
   */
  @IsOptional()
  @IsString()
  NAMESPACE_SCOPES?: string;

  /** Filled by loadExtras from NAMESPACE_SCOPES. */
  scopes = NamespaceScopes.unrestricted;

  /** Variables read under a 0.1.0 name. Filled by loadExtras. */
  formerNames: string[] = [];

  /** Each provider's settings, by key. Filled by loadExtras. */
  private readonly settings = new Map<string, unknown>();

  /** A provider's settings (read at start-up). */
  settingsOf<S>(provider: Pick<ProviderSettings<object, S>, 'key' | 'configured'>): S {
    return this.settings.get(provider.key) as S;
  }

  /** The providers this sidecar can send to or ask approvals in. */
  configuredProviders(): string[] {
    return PROVIDER_SETTINGS.filter((p) => p.configured(this.settings.get(p.key))).map((p) => p.key);
  }

  loadExtras(source: EnvSource): string[] {
    const problems: string[] = [];
    const destinations: Record<string, Iterable<string>> = {};
    for (const provider of PROVIDER_SETTINGS) {
      const read = provider.read(this, source);
      this.settings.set(provider.key, read.settings);
      problems.push(...read.problems);
      this.formerNames.push(...(read.formerNames ?? []));
      Object.assign(destinations, provider.destinations(read.settings));
    }
    if (problems.length === 0 && this.configuredProviders().length === 0)
      problems.push(
        `no provider is configured: set one of: ${PROVIDER_SETTINGS.map((p) => `${p.enable} (${p.key})`).join('; ')}`,
      );
    const scoped = NamespaceScopes.parse(this.NAMESPACE_SCOPES, {
      noun: 'destination',
      configured: destinations,
      normalize: upstreamId,
    });
    this.scopes = scoped.scopes;
    return [...problems, ...scoped.problems];
  }
}
