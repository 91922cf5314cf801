/**
 * Go `time.Duration` strings, as Argo parses `requeue` (time.ParseDuration) and prints durations
 * (Duration.String). Values are handled in milliseconds; sub-millisecond parts are kept as fractions.
 */
export type Duration = string;

/** A Map: the unit is text from the input, which must never find `constructor` or `toString` on a prototype. */
const UNIT_MS = new Map<string, number>([
  ['ns', 1e-6],
  ['us', 1e-3],
  ['µs', 1e-3], // U+00B5 micro sign
  ['μs', 1e-3], // U+03BC Greek mu
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
]);

const MAX_DURATION_MS = 9_223_372_036_854.775; // math.MaxInt64 nanoseconds

export class DurationParseError extends Error {
  constructor(input: string, reason: string) {
    super(`time: ${reason} duration ${JSON.stringify(input)}`);
    this.name = 'DurationParseError';
  }
}

/** Parses a Go duration string (`30s`, `1m30s`, `1.5h`, `-2m`, `0`) into milliseconds; throws like Go does. */
export function parseDuration(input: string): number {
  let s = input;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s[0] === '-' ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new DurationParseError(input, 'invalid');
  let total = 0;
  while (s.length > 0) {
    // As time.ParseDuration: a number (integer and/or fraction), then the unit: every character up to the
    // next digit or dot.
    const number = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (number[1] === '' && (number[2] === undefined || number[2] === ''))
      throw new DurationParseError(input, 'invalid');
    s = s.slice(number[0].length);
    const unitText = /^[^\d.]*/.exec(s)![0];
    if (unitText === '') throw new DurationParseError(input, 'missing unit in');
    const unit = UNIT_MS.get(unitText);
    if (unit === undefined)
      throw new DurationParseError(input, `unknown unit ${JSON.stringify(unitText)} in`);
    total += Number(`${number[1] || '0'}.${number[2] ?? '0'}`) * unit;
    s = s.slice(unitText.length);
  }
  if (total > MAX_DURATION_MS) throw new DurationParseError(input, 'invalid');
  return sign * total;
}

/** Like parseDuration but returns undefined instead of throwing. */
export function tryParseDuration(input: unknown): number | undefined {
  if (typeof input !== 'string') return undefined;
  try {
    return parseDuration(input);
  } catch {
    return undefined;
  }
}

/** Formats milliseconds the way Go's Duration.String() does: `30s`, `1m30s`, `2h0m0s`, `1.5s`, `250ms`, `0s`. */
export function formatDuration(ms: number): Duration {
  if (!Number.isFinite(ms)) throw new RangeError(`cannot format duration ${ms}`);
  const ns = Math.round(ms * 1e6);
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(ns);
  let out: string;
  if (u < 1e9) {
    // Sub-second: the largest unit that keeps an integer part, with a trimmed fraction.
    const [div, unit] = u < 1e3 ? [1, 'ns'] : u < 1e6 ? [1e3, 'µs'] : [1e6, 'ms'];
    out = trimFraction(u / div) + unit;
  } else {
    const h = Math.floor(u / 3.6e12);
    u -= h * 3.6e12;
    const m = Math.floor(u / 6e10);
    u -= m * 6e10;
    const sec = trimFraction(u / 1e9);
    out = h > 0 ? `${h}h${m}m${sec}s` : m > 0 ? `${m}m${sec}s` : `${sec}s`;
  }
  return neg ? `-${out}` : out;
}

function trimFraction(value: number): string {
  // Go prints up to nanosecond precision with trailing zeros removed.
  return value.toFixed(9).replace(/\.?0+$/, '');
}
