import { PluginConfigError } from '../errors/upstream-error.js';
import type { EnvSource } from './env.js';
import type { NamespaceScopes } from './namespace-scopes.js';

// Named, namespace-scoped upstreams: the one way every plugin lets the admin configure several servers,
// workspaces or connections of a provider, and a body pick one by name. `<PROVIDER>_<SETTING>` is the default
// upstream (`JENKINS_URL`), `<PROVIDER>_<NAME>_<SETTING>` the upstream `name` (`JENKINS_PROD_URL`, chosen with
// `server: prod`); NAMESPACE_SCOPES says which workflow namespaces may use which name.

/** The upstream of the unnamed variables, used when a body names none. */
export const DEFAULT_UPSTREAM = 'default';

/** How a body or NAMESPACE_SCOPES names an upstream: `prod-eu`, `PROD_EU` and `prod_eu` are one; none is `default`. */
export function upstreamId(name: string | undefined): string {
  return name === undefined || name === '' ? DEFAULT_UPSTREAM : name.toLowerCase().replace(/-/g, '_');
}

/** The variables of one provider. */
export interface UpstreamFamily {
  /** The variables' prefix without its underscore: `JENKINS`, `GOOGLE_CHAT`. */
  prefix: string;
  /** The settings of one upstream, as the variables end: `URL`, `USER`, `API_TOKEN`. */
  settings: readonly string[];
  /**
   * Settings 0.1.0 spelt `<PROVIDER>_<SETTING>_<NAME>` (`SLACK_BOT_TOKEN_OPS`), still read for one release. A
   * variable that reads both ways (`SMTP_URL_FROM`) is taken in the current spelling.
   */
  formerSpelling?: readonly string[];
}

/** `JENKINS_URL` for the default upstream, `JENKINS_PROD_URL` for `prod`. */
export function upstreamVariable(
  family: Pick<UpstreamFamily, 'prefix'>,
  name: string,
  setting: string,
): string {
  return name === DEFAULT_UPSTREAM
    ? `${family.prefix}_${setting}`
    : `${family.prefix}_${name.toUpperCase()}_${setting}`;
}

/** One configured upstream: the settings given for it. */
export interface UpstreamSettings {
  /** `default`, or the name in lower case (`prod_eu`). */
  name: string;
  /** Setting → value (trimmed, never empty), for the settings that are set. */
  values: Readonly<Partial<Record<string, string>>>;
  /** The variable of a setting in the spelling the admin used for this upstream: for problems. */
  variable(setting: string): string;
}

export interface UpstreamsRead {
  /** By name: `default` first when it is set, then the named ones in name order. */
  upstreams: Map<string, UpstreamSettings>;
  /** Variables that cannot be read (a bad name), each naming the variable, never its value. */
  problems: string[];
  /** Variables read in the former spelling, with their current one: `SLACK_BOT_TOKEN_OPS (now SLACK_OPS_BOT_TOKEN)`. */
  formerNames: string[];
}

const NAME = /^[A-Z0-9]+(?:_[A-Z0-9]+)*$/;

interface Found {
  variable: string;
  name: string;
  setting: string;
  value: string;
  former: boolean;
}

const longestFirst = (list: readonly string[]) => [...list].sort((a, b) => b.length - a.length);

/** Which upstream and setting a variable of the family is, or why it cannot be read, or nothing. */
function parse(
  family: UpstreamFamily,
  variable: string,
): Omit<Found, 'value' | 'variable'> | string | undefined {
  const rest = variable.slice(family.prefix.length + 1);
  let setting = longestFirst(family.settings).find((s) => rest === s || rest.endsWith(`_${s}`));
  let name = setting === undefined ? undefined : rest.slice(0, Math.max(0, rest.length - setting.length - 1));
  let former = false;
  if (setting === undefined) {
    setting = longestFirst(family.formerSpelling ?? []).find((s) => rest.startsWith(`${s}_`));
    if (setting === undefined) return undefined;
    name = rest.slice(setting.length + 1);
    former = true;
  }
  if (name === '') return { name: DEFAULT_UPSTREAM, setting, former: false };
  // Kubernetes service links: a Service called `databricks` gives the pod DATABRICKS_SERVICE_HOST.
  if (/(^|_)SERVICE$/.test(name!) && (setting === 'HOST' || setting === 'PORT')) return undefined;
  if (!NAME.test(name!))
    return `the name in it must be upper-case letters and digits, words joined by single underscores (${family.prefix}_OPS_${setting})`;
  if (name === DEFAULT_UPSTREAM.toUpperCase())
    return `"default" is the upstream of ${upstreamVariable(family, DEFAULT_UPSTREAM, setting)}; pick another name`;
  return { name: name!.toLowerCase(), setting, former };
}

/**
 * Reads a provider's upstreams from the environment: which upstream each set variable belongs to, its value
 * trimmed (a Secret made with `--from-file` ends in a newline, which is no part of the credential). Which
 * settings an upstream needs is the plugin's to check.
 */
export function readUpstreams(source: EnvSource, family: UpstreamFamily): UpstreamsRead {
  const problems: string[] = [];
  const found: Found[] = [];
  for (const [variable, raw] of Object.entries(source)) {
    if (!variable.startsWith(`${family.prefix}_`)) continue;
    const value = raw?.trim();
    if (!value) continue;
    const parsed = parse(family, variable);
    if (typeof parsed === 'string') problems.push(`${variable}: ${parsed}`);
    else if (parsed) found.push({ ...parsed, variable, value });
  }
  // The current spelling first: a setting given both ways is read from it.
  found.sort((a, b) => Number(a.former) - Number(b.former));
  const values = new Map<string, Record<string, string>>();
  const spelledFormer = new Map<string, boolean>();
  const formerNames: string[] = [];
  for (const f of found) {
    const settings = values.get(f.name) ?? {};
    if (settings[f.setting] !== undefined) continue;
    settings[f.setting] = f.value;
    values.set(f.name, settings);
    spelledFormer.set(f.name, (spelledFormer.get(f.name) ?? true) && f.former);
    if (f.former) formerNames.push(`${f.variable} (now ${upstreamVariable(family, f.name, f.setting)})`);
  }
  const upstreams = new Map<string, UpstreamSettings>();
  // The default first, then by name. Plain code-unit order: localeCompare would page ICU's collation data in at
  // start-up (~2 MiB of resident memory for a sort of a few ASCII names).
  const order = (name: string) => (name === DEFAULT_UPSTREAM ? '' : name);
  const byName = ([a]: [string, unknown], [b]: [string, unknown]) =>
    order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0;
  for (const [name, settings] of [...values].sort(byName)) {
    const former = spelledFormer.get(name) === true;
    upstreams.set(name, {
      name,
      values: settings,
      variable: (setting) =>
        former
          ? `${family.prefix}_${setting}_${name.toUpperCase()}`
          : upstreamVariable(family, name, setting),
    });
  }
  return { upstreams, problems, formerNames };
}

/** What messages call a provider's upstreams, and how the admin adds one. */
export interface UpstreamKind {
  /** The provider as messages name it: `jenkins`, `Mattermost`, `Microsoft Teams`. */
  provider: string;
  /** Its kind in NAMESPACE_SCOPES (`jenkins/prod=…`): `jenkins`, `googleChat`. */
  scope: string;
  /** The body field that names an upstream, and what one is called: `server`, `connection`, `workspace`. */
  field: string;
  /** What the admin sets for the default upstream: `JENKINS_URL, JENKINS_USER and JENKINS_API_TOKEN`. */
  enable: string;
  /** The variables that would define the upstream `NAME`: `JENKINS_QA_URL, JENKINS_QA_USER and …`. */
  variablesFor(name: string): string;
}

/**
 * The kind of a provider's named upstreams (`server: <name>` in the body, NAMESPACE_SCOPES kind `provider`),
 * `enable` naming the variables of one from its settings (`(v) => `${v('URL')} and ${v('TOKEN')}``).
 */
export function upstreamKind(
  provider: string,
  field: string,
  family: Pick<UpstreamFamily, 'prefix'>,
  enable: (variable: (setting: string) => string) => string,
): UpstreamKind {
  const enableFor = (name: string) => enable((setting) => upstreamVariable(family, name, setting));
  return { provider, scope: provider, field, enable: enableFor(DEFAULT_UPSTREAM), variablesFor: enableFor };
}

/** Who asks: the workflow's namespace, and which upstreams each namespace may use. */
export interface UpstreamAccess {
  scopes: NamespaceScopes;
  namespace: string;
}

/**
 * The upstream a body selects (`<field>: name`, or the default one) for a workflow of the namespace, else a
 * PluginConfigError saying what the admin would set. An upstream closed to the namespace (NAMESPACE_SCOPES)
 * reads like one that is not configured, and messages list only the open ones: an author learns no other name.
 */
export function pickUpstream<T>(
  kind: UpstreamKind,
  configured: ReadonlyMap<string, T>,
  requested: string | undefined,
  access: UpstreamAccess,
): T {
  if (configured.size === 0)
    throw new PluginConfigError(
      `no ${kind.provider} ${kind.field} is configured for this sidecar (the admin sets ${kind.enable})`,
    );
  const name = upstreamId(requested);
  const open = access.scopes.allowed(kind.scope, configured.keys(), access.namespace);
  if (open.includes(name)) return configured.get(name)!;
  const known =
    open.map((n) => (n === DEFAULT_UPSTREAM ? `default (no ${kind.field})` : n)).join(', ') || 'none';
  throw new PluginConfigError(
    name === DEFAULT_UPSTREAM
      ? `${kind.field}: no default ${kind.provider} ${kind.field} for namespace ${access.namespace} (the admin sets ${kind.enable}); choose one of: ${known}`
      : `${kind.field}: no ${kind.provider} ${kind.field} "${requested}" for namespace ${access.namespace} (known: ${known}); the admin adds one with ${kind.variablesFor(name.toUpperCase())}`,
  );
}

/**
 * One client per configured upstream of a provider, made on its first use and kept (it holds connections,
 * tokens, what it learnt of the upstream); the body's choice is checked against the namespace on every call.
 */
export class UpstreamClients<U, C> {
  private readonly clients = new Map<string, C>();

  constructor(
    private readonly kind: UpstreamKind,
    private readonly configured: ReadonlyMap<string, U>,
    private readonly create: (upstream: U, name: string) => C,
  ) {}

  /** The client of the upstream a body names (or the default one), else pickUpstream's PluginConfigError. */
  get(requested: string | undefined, access: UpstreamAccess): C {
    const upstream = pickUpstream(this.kind, this.configured, requested, access);
    const name = upstreamId(requested);
    let client = this.clients.get(name);
    if (!client) {
      client = this.create(upstream, name);
      this.clients.set(name, client);
    }
    return client;
  }
}
