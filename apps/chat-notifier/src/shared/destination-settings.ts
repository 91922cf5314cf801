import {
  EnvInt,
  EnvTrim,
  readUpstreams,
  Secret,
  type EnvSource,
  type UpstreamFamily,
  type UpstreamSettings,
} from '@app/plugin-kit';
import { IsInt, IsOptional, IsString, Max, Min } from '@app/plugin-kit/config/env-rules.js';

// What every provider's settings reader uses: the rules of its variables, and the checks of its destinations.

/** Several env rules as one decorator. */
const all =
  (...rules: PropertyDecorator[]): PropertyDecorator =>
  (target, property) => {
    for (const rule of rules) rule(target, property);
  };

/** An optional text setting, surrounding whitespace dropped (a Secret made with `echo` ends in a newline). */
export const OptionalSetting = (): PropertyDecorator => all(IsString(), IsOptional(), EnvTrim());

/** An optional credential: an optional setting, masked in every log line, node message and output. */
export const OptionalCredential = (): PropertyDecorator => all(OptionalSetting(), Secret());

/**
 * `<PROVIDER>_APPROVAL_CALLS_PER_MINUTE` (GitHub's: `APPROVALS_GITHUB_CALLS_PER_MINUTE`): the calls a minute the approval gates of the sidecar may make on each
 * upstream of the provider (unset: 0.8 × its published limit). Lower it when other apps share the budget.
 */
export const ApprovalCallsPerMinute = (): PropertyDecorator =>
  all(EnvInt(), IsOptional(), IsInt(), Min(1), Max(100_000));

/** What is wrong with a value, or undefined. */
export type ValueCheck = (value: string) => string | undefined;

/** `undefined` for a credential without whitespace (surrounding whitespace is trimmed before). */
export const credentialProblem: ValueCheck = (value) =>
  /\s/.test(value) ? 'must not contain spaces or line breaks' : undefined;

/**
 * Checks the settings of one destination that are set; returns the problems (`<VARIABLE>: <problem>`, the
 * variable as the admin spelt it) and the settings that failed.
 */
export function checkSettings(
  destination: UpstreamSettings,
  checks: Readonly<Record<string, ValueCheck>>,
): { problems: string[]; failed: Set<string> } {
  const problems: string[] = [];
  const failed = new Set<string>();
  for (const [setting, check] of Object.entries(checks)) {
    const value = destination.values[setting];
    const problem = value === undefined ? undefined : check(value);
    if (!problem) continue;
    problems.push(`${destination.variable(setting)}: ${problem}`);
    failed.add(setting);
  }
  return { problems, failed };
}

/** Two settings that go together (`URL` and `TOKEN`): `<missing>: is required with <given>`, unless the given one failed. */
export function pairProblems(
  destination: UpstreamSettings,
  [a, b]: readonly string[],
  failed: Set<string>,
): string[] {
  const has = (s: string) => destination.values[s] !== undefined;
  if (has(a!) === has(b!)) return [];
  const [given, missing] = has(a!) ? [a!, b!] : [b!, a!];
  if (failed.has(given)) return [];
  return [`${destination.variable(missing)}: is required with ${destination.variable(given)}`];
}

export interface DestinationsRead<T> {
  /** By name: `default` (the unnamed variables) first. */
  destinations: Map<string, T>;
  /** Each destination's variables as given, valid or not (for a provider's own checks). */
  given: Map<string, UpstreamSettings>;
  problems: string[];
  formerNames: string[];
}

/**
 * A provider's destinations (the kit's named upstreams of its family): each one's settings checked, all of
 * them required (two go in a pair: `SMTP_URL` with `SMTP_FROM`), and what a complete, valid one becomes.
 */
export function readDestinations<T>(
  source: EnvSource,
  family: UpstreamFamily,
  checks: Readonly<Record<string, ValueCheck>>,
  make: (values: Readonly<Record<string, string>>) => T,
): DestinationsRead<T> {
  const { upstreams, problems, formerNames } = readUpstreams(source, family);
  const destinations = new Map<string, T>();
  for (const [name, destination] of upstreams) {
    const checked = checkSettings(destination, checks);
    const unpaired =
      family.settings.length === 2 ? pairProblems(destination, family.settings, checked.failed) : [];
    problems.push(...checked.problems, ...unpaired);
    const complete = family.settings.every((s) => destination.values[s] !== undefined);
    if (complete && checked.failed.size === 0)
      destinations.set(name, make(destination.values as Record<string, string>));
  }
  return { destinations, given: upstreams, problems, formerNames };
}
