import type { Credential, EnvSource } from '../config/env.js';
import { exactlyOneProviderBlock } from '../config/provider-block.js';
import type { AnyProviderSettings, EnvClass } from './provider-definition.js';

/** What a table read of its providers' settings at start-up. */
export interface ProvidersRead {
  /** Each provider's settings, by key. */
  settings: ReadonlyMap<string, unknown>;
  /** Each names a variable, never its value. */
  problems: string[];
  /** Variables read under a 0.1.0 name. */
  formerNames: string[];
  /** The upstreams' names, by NAMESPACE_SCOPES kind. */
  destinations: Record<string, Iterable<string>>;
}

/**
 * A plugin's providers, in the order of its docs: a provider is its folder under providers/ and its line in
 * `providers/index.ts`. The sidecar's variables, the body's provider blocks, the handler's dispatch and a
 * collection's families all come from this list.
 */
export class ProviderTable<P extends AnyProviderSettings = AnyProviderSettings> {
  constructor(readonly providers: readonly P[]) {}

  get keys(): string[] {
    return this.providers.map((p) => p.key);
  }

  /** Every provider's variable families (`SLACK_`, `SMTP_`): the plugin's envPrefixes. */
  get prefixes(): string[] {
    return this.providers.flatMap((p) => [...p.prefixes]);
  }

  /** Every provider's variables, one on top of the other: the base of the plugin's env class. */
  variables(): EnvClass {
    return this.providers.reduce<EnvClass>((base, provider) => provider.variables(base), class {});
  }

  /** Reads each provider's settings (`env`: the loaded env class, its rules already checked). */
  read(env: object, source: EnvSource): ProvidersRead {
    const settings = new Map<string, unknown>();
    const problems: string[] = [];
    const formerNames: string[] = [];
    const destinations: Record<string, Iterable<string>> = {};
    for (const provider of this.providers) {
      const read = provider.read(env, source);
      settings.set(provider.key, read.settings);
      problems.push(...read.problems);
      formerNames.push(...(read.formerNames ?? []));
      Object.assign(destinations, provider.destinations(read.settings));
    }
    return { settings, problems, formerNames, destinations };
  }

  /** The keys of the providers the settings enable. */
  configured(settings: ReadonlyMap<string, unknown>): string[] {
    return this.providers.filter((p) => p.configured(settings.get(p.key))).map((p) => p.key);
  }

  /** Every provider's credentials in its settings (the env's `credentials()`). */
  credentials(settings: ReadonlyMap<string, unknown>): Credential[] {
    return this.providers.flatMap((p) => p.credentials?.(settings.get(p.key)) ?? []);
  }

  /** The start-up problem when no provider is enabled, naming what enables each. */
  noneConfigured(): string {
    return `no provider is configured: set one of: ${this.providers.map((p) => `${p.enable} (${p.key})`).join('; ')}`;
  }

  /** The one provider block of a body, else a PluginConfigError naming the ones allowed and the ones found. */
  pick(body: object, keys: readonly string[] = this.keys): string {
    return exactlyOneProviderBlock(body, keys);
  }
}
