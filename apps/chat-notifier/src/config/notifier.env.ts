import { parseDuration } from '@app/contract';
import {
  NamespaceScopes,
  upstreamId,
  type EnvExtras,
  type EnvSource,
  type ProviderSettings,
  type ReadsFormerNames,
} from '@app/plugin-kit';
import { IsGoDuration, IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { PROVIDER_SETTINGS } from '../providers/index.js';

/** Every provider's variables, one on top of the other. */
const ProviderVariables = PROVIDER_SETTINGS.variables();

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
  private settings: ReadonlyMap<string, unknown> = new Map();

  /** A provider's settings (read at start-up). */
  settingsOf<S>(provider: Pick<ProviderSettings<object, S>, 'key' | 'configured'>): S {
    return this.settings.get(provider.key) as S;
  }

  /** What a provider's Nest side is given of the env (its context): its settings, the scopes, the timeout. */
  contextOf(key: string): { settings: unknown; scopes: NamespaceScopes; timeoutMs: number } {
    return {
      settings: this.settings.get(key),
      scopes: this.scopes,
      timeoutMs: parseDuration(this.NOTIFY_REQUEST_TIMEOUT),
    };
  }

  /** The providers this sidecar can send to or ask approvals in. */
  configuredProviders(): string[] {
    return PROVIDER_SETTINGS.configured(this.settings);
  }

  loadExtras(source: EnvSource): string[] {
    const { settings, problems, formerNames, destinations } = PROVIDER_SETTINGS.read(this, source);
    this.settings = settings;
    this.formerNames.push(...formerNames);
    if (problems.length === 0 && this.configuredProviders().length === 0)
      problems.push(PROVIDER_SETTINGS.noneConfigured());
    const scoped = NamespaceScopes.parse(this.NAMESPACE_SCOPES, {
      noun: 'destination',
      configured: destinations,
      normalize: upstreamId,
    });
    this.scopes = scoped.scopes;
    return [...problems, ...scoped.problems];
  }
}
