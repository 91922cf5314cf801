// What the collection's manifest is made of, read from its code: the plugins it hosts (their keys, prefixes and
// provider tables), the variables several of them declare and the kit values it sets for all.
import { collection } from '../../../apps/collection/src/collection.definition.js';
import type { CollectionHosting } from '@app/manifests';
import { COLLECTION_KIT_DEFAULTS, keysOf, overridePrefixOf, sharedVariables } from '@app/plugin-kit';
import { envProperties } from '@app/plugin-kit/config/env-rules.js';

/** What each of the collection's kit defaults means, for the comment above it in the manifest. */
const DEFAULT_MEANINGS: Record<string, string> = {
  MAX_EXECUTIONS: 'Executions one plugin runs at a time (past it: 503, the agent retries)',
};

export function collectionHosting(): CollectionHosting {
  return {
    app: collection.name,
    plugins: collection.plugins.map((plugin) => ({
      name: plugin.name,
      key: plugin.key,
      keys: keysOf(plugin),
      prefix: overridePrefixOf(plugin),
      providers: (plugin.providers?.providers ?? []).map((p) => ({
        key: p.key,
        variables: envProperties(p.variables(class {})),
      })),
    })),
    shared: [...sharedVariables(collection.plugins).keys()],
    defaults: Object.entries(COLLECTION_KIT_DEFAULTS).map(([name, value]) => {
      const meaning = DEFAULT_MEANINGS[name];
      if (!meaning) throw new Error(`collection-hosting.ts: say what the collection's ${name} means`);
      return { name, value: value ?? '', meaning };
    }),
  };
}
