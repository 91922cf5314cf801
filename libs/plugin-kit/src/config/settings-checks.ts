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
