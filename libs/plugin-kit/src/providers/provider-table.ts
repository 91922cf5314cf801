import type { Credential, EnvSource } from '../config/env.js';
import { exactlyOneProviderBlock } from '../config/provider-block.js';
import { PluginConfigError } from '../errors/upstream-error.js';
import type { AnyProviderDefinition, AnyProviderSettings, EnvClass } from './provider-definition.js';

/**
 * A provider's block class may check what class-validator cannot: rules across its fields, or with the body's.
 * A static method, as a method of the block would take a body field of its name silently.
 */
export interface ProviderBlockClass {
  problems?(block: object, body: object): string[];
}

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

  /**
   * The one provider block of a validated body and its key, else a PluginConfigError: for none or several
   * blocks, or for what its class's static `problems(block, body)` finds (rules across fields that class-validator cannot
   * express), joined with `; `.
   */
  pickBlock<B extends object = object>(body: object): { key: string; block: B } {
    const key = this.pick(body);
    const block = (body as Record<string, B>)[key]!;
    const problems = (block.constructor as ProviderBlockClass).problems?.(block, body) ?? [];
    if (problems.length > 0) throw new PluginConfigError(problems.join('; '));
    return { key, block };
  }
}

const loaded = new WeakMap<ProviderTable, Promise<Map<string, unknown>>>();

/**
 * Every provider's Nest side (`load()`), by key, loaded once with the plugin's module, one after the other:
 * concurrent dynamic imports race under Jest's ESM loader.
 */
export function loadProviderModules<M>(
  table: ProviderTable<AnyProviderDefinition<M>>,
): Promise<Map<string, M>> {
  let loading = loaded.get(table);
  if (!loading) {
    loading = (async () => {
      const modules = new Map<string, unknown>();
      for (const provider of table.providers) modules.set(provider.key, await provider.load());
      return modules;
    })();
    loaded.set(table, loading);
  }
  return loading as Promise<Map<string, M>>;
}
