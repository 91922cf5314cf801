import type { EnvSource } from '../config/env.js';
import { envProperties, IsOptional, IsString } from '../config/env-rules.js';
import { KitEnv } from '../config/kit-env.js';
import { keysOf, type PluginDefinition } from '../plugin-definition.js';

/** Settings of the collection sidecar itself. */
export class CollectionEnv {
  /** Keys of the plugins to serve, comma-separated (`notify,build`; an alias key works too); unset means all. */
  @IsOptional()
  @IsString()
  PLUGINS?: string;
}

/**
 * Kit values a hosted plugin gets unless the admin sets them (`MAX_EXECUTIONS`, or one plugin's
 * `BUILD_TRIGGER_MAX_EXECUTIONS`): the plugins share one memory limit, so each runs fewer at once than a
 * single sidecar (100).
 */
export const COLLECTION_KIT_DEFAULTS: EnvSource = { MAX_EXECUTIONS: '32' };

/** Kit settings of the shared front: one value for the whole sidecar, never per plugin. */
export const FRONT_VARIABLES = [
  'PORT',
  'HOST',
  'TOKEN_FILE',
  'BODY_LIMIT',
  'BODY_MAX_VALUES',
  'MAX_CONNECTIONS',
  'SHUTDOWN_TIMEOUT',
] as const;

/** `chat-notifier` → `CHAT_NOTIFIER_`: the prefix of one plugin's own values in a collection. */
export function overridePrefixOf(definition: PluginDefinition): string {
  return `${definition.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_`;
}

/** Variables every hosted plugin reads through the kit (the front's own ones excluded). */
export function perPluginKitVariables(): string[] {
  const front = new Set<string>(FRONT_VARIABLES);
  return envProperties(KitEnv).filter((n) => !front.has(n));
}

function declaredBy(definition: PluginDefinition): readonly string[] {
  return definition.env ? envProperties(definition.env) : [];
}

/**
 * Problems that make two plugins impossible to host side by side, whatever the admin sets: a plugin that
 * declares a kit or collection variable, a variable family of one plugin that covers a variable or family of
 * another, a per-plugin prefix that falls into another plugin's family. Each problem names both sides.
 */
export function structuralClashes(definitions: PluginDefinition[]): string[] {
  const problems: string[] = [];
  const reserved = new Set([...envProperties(KitEnv), ...envProperties(CollectionEnv)]);
  const keys = new Map<string, string>();
  for (const d of definitions) {
    for (const name of declaredBy(d))
      if (reserved.has(name))
        problems.push(`${d.name}: declares ${name}, a variable of the kit or collection`);
    for (const key of keysOf(d)) {
      const other = keys.get(key);
      if (other) problems.push(`${d.name} and ${other}: both answer the key ${key}`);
      else keys.set(key, d.name);
    }
  }
  for (const a of definitions)
    for (const b of definitions) {
      if (a === b) continue;
      for (const family of a.envPrefixes ?? []) {
        for (const name of declaredBy(b))
          if (name.startsWith(family))
            problems.push(`${a.name}: its family ${family}* covers ${name} of ${b.name}`);
        for (const other of [...(b.envPrefixes ?? []), overridePrefixOf(b)])
          if (other.startsWith(family) || family.startsWith(other))
            problems.push(`${a.name}: its family ${family}* overlaps ${other}* of ${b.name}`);
      }
    }
  return problems;
}

/** Variable names declared by more than one of the given plugins: `name → plugins`. */
export function sharedVariables(definitions: PluginDefinition[]): Map<string, PluginDefinition[]> {
  const owners = new Map<string, PluginDefinition[]>();
  for (const d of definitions)
    for (const name of declaredBy(d)) owners.set(name, [...(owners.get(name) ?? []), d]);
  return new Map([...owners].filter(([, ds]) => ds.length > 1));
}

/** Whether a hosted plugin reads a variable: a per-plugin kit setting, one its env class declares, or one of its families. */
export function readerOf(definition: PluginDefinition): (name: string) => boolean {
  const own = new Set([...perPluginKitVariables(), ...declaredBy(definition)]);
  const families = definition.envPrefixes ?? [];
  return (name) => own.has(name) || families.some((f) => name.startsWith(f));
}

/**
 * What one hosted plugin sees of the sidecar environment: the kit's per-plugin variables, the variables its
 * env class declares and its families — never another plugin's — with `<PLUGIN>_<NAME>` taking precedence
 * over `<NAME>`. A variable several enabled plugins declare is only read in its prefixed form.
 */
export function scopedSource(
  definition: PluginDefinition,
  enabled: PluginDefinition[],
  source: EnvSource,
  shared = sharedVariables(enabled),
): EnvSource {
  const isOwn = readerOf(definition);
  const prefix = overridePrefixOf(definition);
  const declared = new Set(declaredBy(definition));
  // `<PREFIX><NAME>` is an override of NAME, unless the plugin declares it under that very name.
  const overrideOf = (name: string): string | undefined => {
    if (!name.startsWith(prefix) || declared.has(name)) return undefined;
    const stripped = name.slice(prefix.length);
    return isOwn(stripped) ? stripped : undefined;
  };
  const view: EnvSource = {};
  for (const [name, value] of Object.entries(source))
    if (value !== undefined && isOwn(name) && !shared.has(name) && overrideOf(name) === undefined)
      view[name] = value;
  for (const [name, value] of Object.entries(source)) {
    const target = value === undefined ? undefined : overrideOf(name);
    if (target !== undefined) view[target] = value;
  }
  return view;
}

/** Unprefixed variables that several enabled plugins declare: ambiguous, so refused at start-up. */
export function ambiguousVariables(
  enabled: PluginDefinition[],
  source: EnvSource,
  shared = sharedVariables(enabled),
): string[] {
  const problems: string[] = [];
  for (const [name, owners] of shared)
    if (source[name] !== undefined && source[name] !== '')
      problems.push(
        `${name}: is read by ${owners.map((d) => d.name).join(' and ')}; set ${owners
          .map((d) => overridePrefixOf(d) + name)
          .join(' or ')} instead`,
      );
  return problems;
}
