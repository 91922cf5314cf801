import type { UpstreamSettings } from '@app/plugin-kit';

// The checks every provider's settings reader applies to a named destination's variables.

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
  [a, b]: [string, string],
  failed: Set<string>,
): string[] {
  const has = (s: string) => destination.values[s] !== undefined;
  if (has(a) === has(b)) return [];
  const [given, missing] = has(a) ? [a, b] : [b, a];
  if (failed.has(given)) return [];
  return [`${destination.variable(missing)}: is required with ${destination.variable(given)}`];
}
