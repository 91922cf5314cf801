import { PluginConfigError } from '../errors/upstream-error.js';

/**
 * The one provider block of a body (`{jenkins: {...}}` among jenkins, github, gitlab), else a PluginConfigError
 * naming the blocks allowed and the ones found: none, or several.
 */
export function exactlyOneProviderBlock<K extends string>(body: object, names: readonly K[]): K {
  const blocks = body as Partial<Record<K, unknown>>;
  const present = names.filter((name) => blocks[name] !== undefined && blocks[name] !== null);
  if (present.length !== 1)
    throw new PluginConfigError(
      `body: exactly one provider block is required (${names.join(', ')}); got ${present.length === 0 ? 'none' : present.join(' and ')}`,
    );
  return present[0]!;
}
