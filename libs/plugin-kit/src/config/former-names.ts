import { FORMER_VALUE_PREFIX } from '@app/contract';
import { overridePrefixOf, readerOf } from '../collection/collection-env.js';
import type { PluginDefinition } from '../plugin-definition.js';
import type { EnvSource } from './env.js';

// The names of 0.1.0 that still work for one release (docs/install.md, "Upgrading"): values from the Secrets
// and settings ConfigMaps under their old names, a renamed plugin's per-plugin prefix in a collection, and the
// old spelling of named upstreams (read by named-upstreams.ts). Each use is named in one warning at start.

export interface FormerNamesResolved {
  /** The environment with every former name resolved (FORMER_ variables removed). */
  source: EnvSource;
  /** What was read under a former name, for the start-up warning: `SLACK_BOT_TOKEN (from the 0.1.0 Secret)`. */
  used: string[];
}

const isUnset = (value: string | undefined): boolean => value === undefined || value === '';

/**
 * Resolves the former names in a sidecar's environment: `FORMER_<NAME>` (the manifest's reference to the 0.1.0
 * Secret or ConfigMap) stands in for an unset `<NAME>`; in a collection, `<FORMER PLUGIN NAME>_<NAME>` for an
 * unset `<PLUGIN NAME>_<NAME>` when the plugin reads `<NAME>`.
 */
export function resolveFormerNames(source: EnvSource, hosted: PluginDefinition[] = []): FormerNamesResolved {
  const resolved: EnvSource = {};
  const used: string[] = [];
  for (const [name, value] of Object.entries(source))
    if (!name.startsWith(FORMER_VALUE_PREFIX)) resolved[name] = value;
  for (const [name, value] of Object.entries(source)) {
    const current = name.slice(FORMER_VALUE_PREFIX.length);
    if (!name.startsWith(FORMER_VALUE_PREFIX) || isUnset(value) || !isUnset(resolved[current])) continue;
    resolved[current] = value;
    used.push(`${current} (from the 0.1.0 Secret or ConfigMap)`);
  }
  for (const definition of hosted) {
    if (!definition.formerName) continue;
    const former = overridePrefixOf({ ...definition, name: definition.formerName });
    const prefix = overridePrefixOf(definition);
    const reads = readerOf(definition);
    for (const [name, value] of Object.entries(resolved)) {
      const setting = name.slice(former.length);
      if (!name.startsWith(former) || !reads(setting)) continue;
      delete resolved[name];
      if (isUnset(value) || !isUnset(resolved[prefix + setting])) continue;
      resolved[prefix + setting] = value;
      used.push(`${name} (now ${prefix}${setting})`);
    }
  }
  return { source: resolved, used };
}

/** An env class that read variables under a former spelling names them here (`SLACK_BOT_TOKEN_OPS (now …)`). */
export interface ReadsFormerNames {
  readonly formerNames: readonly string[];
}

/** The former names an env object read, if its class reports them. */
export function formerNamesOf(env: unknown): readonly string[] {
  const names = (env as Partial<ReadsFormerNames> | undefined)?.formerNames;
  return Array.isArray(names) ? names : [];
}

/** The one start-up line when something was read under a former name. */
export function formerNamesWarning(used: readonly string[]): string {
  return `deprecated names in use, read for this release only (docs/install.md, "Upgrading"): ${used.join(', ')}`;
}
