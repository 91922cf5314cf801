import type { SettingsRead } from '../providers/provider-definition.js';
import type { EnvSource } from './env.js';
import {
  DEFAULT_UPSTREAM,
  readUpstreams,
  type UpstreamFamily,
  type UpstreamSettings,
} from './named-upstreams.js';
import { httpUrlProblem, NOT_HTTP_URL } from './value-checks.js';

// The checks of a provider's settings read beyond the env class (named upstreams, in loadExtras), each problem
// naming the variable, never its value.

export interface UrlSettingOptions {
  /** Prepended to a value without a scheme (`adb-1.azuredatabricks.net` → `https://adb-1.azuredatabricks.net`). */
  defaultScheme?: 'https';
  /** Refuses a user or password in the URL: the provider has variables for its credentials. */
  noCredentials?: boolean;
  /** Refuses a query or fragment: paths are appended to the URL. */
  noQuery?: boolean;
  /** The env class checked this variable already (`@IsHttpUrl()`): a bad value is not reported a second time. */
  checkedByEnvClass?: boolean;
}

/**
 * The one check of an admin's base URL (an absolute http(s) URL with a host, as httpUrlProblem and the env rule
 * IsHttpUrl judge it): the URL without trailing slashes, or undefined with the problem (`VARIABLE: …`) added.
 */
export function urlSetting(
  variable: string,
  value: string,
  problems: string[],
  options: UrlSettingOptions = {},
): string | undefined {
  const text =
    options.defaultScheme && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)
      ? `${options.defaultScheme}://${value}`
      : value;
  const problem = httpUrlProblem(text) ?? otherProblem(new URL(text), options);
  if (problem === undefined) return text.replace(/\/+$/, '');
  if (!(problem === NOT_HTTP_URL && options.checkedByEnvClass)) problems.push(`${variable}: ${problem}`);
  return undefined;
}

function otherProblem(url: URL, options: UrlSettingOptions): string | undefined {
  if (options.noCredentials && (url.username || url.password))
    return 'must not carry credentials (use the *_USERNAME/*_PASSWORD/*_TOKEN variables)';
  if (options.noQuery && (url.search || url.hash)) return 'must not have a query or fragment';
  return undefined;
}

/**
 * The one "all or none" rule of settings that only work together (an upstream's URL, user and token; a user and
 * its password): once any of `values` is set, the ones of `names` that are not.
 */
export function missingSettings(
  values: Readonly<Record<string, unknown>>,
  names: readonly string[],
): string[] {
  if (!Object.values(values).some((value) => value !== undefined)) return [];
  return names.filter((name) => values[name] === undefined);
}

/** A base URL that paths are appended to, its credentials in variables of their own (a data-job connection's). */
export const BASE_URL: UrlSettingOptions = { noCredentials: true, noQuery: true };

/**
 * The one reader of a provider's upstreams: the default one (`DATABRICKS_HOST`) and the named ones
 * (`DATABRICKS_PROD_HOST`), each made into its settings by `read`, which adds its problems and gives undefined
 * for an upstream it leaves out. The settings by upstream name.
 */
export function readUpstreamSettings<S>(
  source: EnvSource,
  family: UpstreamFamily,
  read: (upstream: UpstreamSettings, problems: string[]) => S | undefined,
): SettingsRead<Map<string, S>> {
  const { upstreams, problems, formerNames } = readUpstreams(source, family);
  const settings = new Map<string, S>();
  for (const upstream of upstreams.values()) {
    const made = read(upstream, problems);
    if (made !== undefined) settings.set(upstream.name, made);
  }
  return { settings, problems, formerNames };
}

export interface UpstreamUrlOptions extends Omit<UrlSettingOptions, 'checkedByEnvClass'> {
  /** The env class checks the default upstream's variable (`@IsHttpUrl()`): its bad value is reported once. */
  defaultCheckedByEnvClass?: boolean;
}

/** An upstream's URL setting, checked by urlSetting under the variable the admin used for that upstream. */
export function upstreamUrl(
  upstream: UpstreamSettings,
  setting: string,
  value: string | undefined,
  problems: string[],
  { defaultCheckedByEnvClass, ...options }: UpstreamUrlOptions = {},
): string | undefined {
  if (value === undefined) return undefined;
  const checkedByEnvClass = defaultCheckedByEnvClass === true && upstream.name === DEFAULT_UPSTREAM;
  return urlSetting(upstream.variable(setting), value, problems, { ...options, checkedByEnvClass });
}

/** Whether every setting of `required` is set, else one problem per missing one naming the ones that are. */
export function requireSettings(upstream: UpstreamSettings, required: string[], problems: string[]): boolean {
  const missing = missingSettings(upstream.values, required);
  for (const setting of missing) {
    const given = Object.keys(upstream.values).map(upstream.variable);
    problems.push(
      `${upstream.variable(setting)}: must be set (${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set)`,
    );
  }
  return missing.length === 0;
}

/** Two settings that are set together or not at all (a user and its password). */
export function pairOrNone(upstream: UpstreamSettings, a: string, b: string, problems: string[]): void {
  const { values, variable } = upstream;
  const [unset] = missingSettings({ [a]: values[a], [b]: values[b] }, [a, b]);
  if (unset !== undefined)
    problems.push(`${variable(unset)}: must be set together with ${variable(unset === a ? b : a)}`);
}
