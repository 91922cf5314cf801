import type { EnvSource } from '@app/plugin-kit';
import { PROVIDERS, type Connections } from '../providers/index.js';

const enables = PROVIDERS.providers.map((p) => p.enable);
const NO_UPSTREAM = `no upstream configured: set ${enables.slice(0, -1).join(', ')} or ${enables.at(-1)}`;

/**
 * Reads every provider's connections from the environment: the unnamed one (`DATABRICKS_HOST`) and named ones
 * (`DATABRICKS_PROD_HOST`, chosen in a body by `connection: prod`). Returns the problems, each naming the
 * variable; values of secrets never appear in them.
 */
export function parseConnections(source: EnvSource): {
  connections: Connections;
  settings: ReadonlyMap<string, unknown>;
  destinations: Record<string, Iterable<string>>;
  problems: string[];
} {
  const { settings, problems, destinations } = PROVIDERS.read({}, source);
  if (PROVIDERS.configured(settings).length === 0 && problems.length === 0) problems.push(NO_UPSTREAM);
  const connections = Object.fromEntries(settings) as Connections;
  return { connections, settings, destinations, problems };
}
