import { readUpstreams, upstreamVariable, type EnvSource, type UpstreamFamily } from '@app/plugin-kit';
import { missingSettings, urlSetting } from '@app/plugin-kit/config/settings-checks.js';

/** The fields of one connection the admin gave (`HOST`, `TOKEN`), and how to name their variables. */
export interface ConnectionFields {
  name: string;
  fields: Record<string, string>;
  /** `DATABRICKS_HOST` for the default connection, `DATABRICKS_PROD_HOST` for `prod`. */
  variable(field: string): string;
}

/** Every connection of a provider: the unnamed one (`DATABRICKS_HOST`) and the named ones (`DATABRICKS_PROD_HOST`). */
export function readConnections(
  source: EnvSource,
  family: UpstreamFamily,
  problems: string[],
): ConnectionFields[] {
  const read = readUpstreams(source, family);
  problems.push(...read.problems);
  return [...read.upstreams].map(([name, upstream]) => ({
    name,
    fields: upstream.values as Record<string, string>,
    variable: (field: string) => upstreamVariable(family, name, field),
  }));
}

/** A connection's base URL: http(s), without credentials (they have their own variables), query or fragment. */
export function baseUrl(
  connection: ConnectionFields,
  field: string,
  value: string,
  problems: string[],
  defaultScheme?: 'https',
): string {
  const variable = connection.variable(field);
  // A bad URL stops the sidecar's start with its problem: what is returned then is never used.
  return (
    urlSetting(variable, value, problems, { defaultScheme, noCredentials: true, noQuery: true }) ?? value
  );
}

/** Whether every field of `required` is set, else one problem per missing field naming the ones that are. */
export function requireAll(connection: ConnectionFields, required: string[], problems: string[]): boolean {
  const missing = missingSettings(connection.fields, required);
  for (const field of missing) {
    const given = Object.keys(connection.fields).map(connection.variable);
    problems.push(
      `${connection.variable(field)}: must be set (${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set)`,
    );
  }
  return missing.length === 0;
}

/** Two fields that are set together or not at all (a user and its password). */
export function pairOrNone(connection: ConnectionFields, a: string, b: string, problems: string[]): void {
  const { fields, variable } = connection;
  const [unset] = missingSettings({ [a]: fields[a], [b]: fields[b] }, [a, b]);
  if (unset !== undefined)
    problems.push(`${variable(unset)}: must be set together with ${variable(unset === a ? b : a)}`);
}
