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

/** A lazy part of each provider (its Nest side, its approval slot), loaded once per table. */
type PartsByTable = WeakMap<ProviderTable, Promise<Map<string, unknown>>>;

/**
 * One part of every provider that has it, by key, in the table's order, loaded once, one after the other:
 * concurrent dynamic imports race under Jest's ESM loader.
 */
function loadParts<M>(
  table: ProviderTable,
  cache: PartsByTable,
  part: (provider: AnyProviderSettings) => (() => Promise<unknown>) | undefined,
): Promise<Map<string, M>> {
  let loading = cache.get(table);
  if (!loading) {
    loading = (async () => {
      const parts = new Map<string, unknown>();
      for (const provider of table.providers) {
        const load = part(provider);
        if (load) parts.set(provider.key, await load());
      }
      return parts;
    })();
    cache.set(table, loading);
  }
  return loading as Promise<Map<string, M>>;
}

const modules: PartsByTable = new WeakMap();
const approvals: PartsByTable = new WeakMap();

/** Every provider's Nest side (`load()`), by key, loaded once with the plugin's module. */
export function loadProviderModules<M>(
  table: ProviderTable<AnyProviderDefinition<M>>,
): Promise<Map<string, M>> {
  return loadParts<M>(table, modules, (provider) => () => (provider as AnyProviderDefinition<M>).load());
}

/** The approval slot of every provider that has one (`approval.load()`), by key, loaded once with the plugin's module. */
export function loadApprovalSlots<A>(table: ProviderTable): Promise<Map<string, A>> {
  return loadParts<A>(table, approvals, (provider) =>
    provider.approval ? () => provider.approval!.load() : undefined,
  );
}
