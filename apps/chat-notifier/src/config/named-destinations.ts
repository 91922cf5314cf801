import { PluginConfigError, type NamespaceScopes } from '@app/plugin-kit';
import type { EnvSource } from '../providers/slack/slack-settings.js';

/** The destination a body gets when it names none: the one of the unsuffixed variable. */
export const DEFAULT_DESTINATION = 'default';

const NAME = /^[A-Z0-9][A-Z0-9_]{0,39}$/;

/** `undefined` for a credential without whitespace (a Secret made with `echo` is trimmed before). */
export const credentialProblem = (value: string): string | undefined =>
  /\s/.test(value) ? 'must not contain spaces or line breaks' : undefined;

/**
 * The destinations one variable defines, the rule every provider shares: `<BASE>` is the default
 * destination and `<BASE>_<NAME>` the one a body selects by name (case-insensitive, stored lower case).
 * Values are trimmed; problems name the variable, never its value.
 */
export function readNamed(
  source: EnvSource,
  base: string,
  check: (value: string) => string | undefined,
): { values: Map<string, string>; problems: string[] } {
  const values = new Map<string, string>();
  const problems: string[] = [];
  for (const [variable, raw] of Object.entries(source)) {
    if (raw === undefined || raw.trim() === '') continue;
    const name =
      variable === base
        ? DEFAULT_DESTINATION
        : variable.startsWith(`${base}_`)
          ? variable.slice(base.length + 1)
          : undefined;
    if (name === undefined) continue;
    if (name !== DEFAULT_DESTINATION && !NAME.test(name)) {
      problems.push(`${variable}: the name after ${base}_ must be letters, digits and underscores`);
      continue;
    }
    if (name === DEFAULT_DESTINATION.toUpperCase()) {
      problems.push(`${variable}: "default" is the destination of ${base}; pick another name`);
      continue;
    }
    const value = raw.trim();
    const problem = check(value);
    if (problem) problems.push(`${variable}: ${problem}`);
    else values.set(name.toLowerCase(), value);
  }
  return { values, problems };
}

/** Names a message can offer: `default (no field)` for the default destination. */
export function knownNames(names: Iterable<string>, field: string): string {
  return [...names].map((n) => (n === DEFAULT_DESTINATION ? `default (no ${field})` : n)).join(', ');
}

export interface DestinationKind {
  /** `Mattermost`, for messages. */
  provider: string;
  /** The kind in NAMESPACE_SCOPES entries: the provider's key under `notify` (`mattermost/ops=team-*`). */
  scope: string;
  /** The body field that names a destination: `server`, `webhook`, `service`. */
  field: string;
  /** What enables the provider: `MATTERMOST_URL and MATTERMOST_TOKEN`. */
  enable: string;
  /** The variable(s) that would define a named destination: `MATTERMOST_URL_OPS and MATTERMOST_TOKEN_OPS`. */
  variablesFor(name: string): string;
}

/** Who asks: the workflow's namespace, and which destinations each namespace may use. */
export interface DestinationAccess {
  scopes: NamespaceScopes;
  namespace: string;
}

/**
 * The destination a body selects (`<field>: name`, or the default one) for a workflow of the namespace; a
 * PluginConfigError naming what the admin would set when it is not configured. A destination closed to the
 * namespace (NAMESPACE_SCOPES) reads like one that is not configured, and messages list only open ones.
 */
export function pickDestination<T>(
  kind: DestinationKind,
  configured: Map<string, T>,
  requested: string | undefined,
  access: DestinationAccess,
): T {
  if (configured.size === 0)
    throw new PluginConfigError(
      `no ${kind.provider} destination is configured for this sidecar (the admin sets ${kind.enable})`,
    );
  const open = new Map(
    [...configured].filter(([n]) => access.scopes.allows(kind.scope, n, access.namespace)),
  );
  const name = (requested ?? DEFAULT_DESTINATION).toLowerCase();
  const found = open.get(name);
  if (found) return found;
  const known = knownNames(open.keys(), kind.field) || 'none';
  if (requested === undefined)
    throw new PluginConfigError(
      `${kind.field}: no default ${kind.provider} ${kind.field} for namespace ${access.namespace}; choose one of: ${known}`,
    );
  throw new PluginConfigError(
    `${kind.field}: no ${kind.field} "${requested}" for namespace ${access.namespace} (known: ${known}); the admin adds one with ${kind.variablesFor(name.toUpperCase())}`,
  );
}
