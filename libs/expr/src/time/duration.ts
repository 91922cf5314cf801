// time.ParseDuration and Duration.String.
import { fail } from '../errors.js';
import type { GoInt } from '../values.js';
import { duration, goQuoteTime, NS } from './common.js';

/** A Map: the unit is text from the input, which must never find `constructor` or `toString` on a prototype. */
const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1000n],
  ['µs', 1000n],
  ['μs', 1000n],
  ['ms', 1_000_000n],
  ['s', NS],
  ['m', 60n * NS],
  ['h', 3600n * NS],
]);

/** time.ParseDuration. */
export function parseDuration(text: string): GoInt {
  const invalid = (): never => fail(`time: invalid duration ${goQuoteTime(text)}`);
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return duration(0n);
  if (s === '') invalid();
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, intPart, fracPart] = [m[0], m[1]!, m[2]];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) invalid();
    s = s.slice(whole.length);
    const unitMatch = /^[^\d.]+/.exec(s);
    if (!unitMatch) fail(`time: missing unit in duration ${goQuoteTime(text)}`);
    const unitText = unitMatch[0];
    const unit = UNITS.get(unitText);
    if (unit === undefined)
      fail(`time: unknown unit ${goQuoteTime(unitText)} in duration ${goQuoteTime(text)}`);
    s = s.slice(unitText.length);
    let part = BigInt(intPart || '0') * unit;
    if (fracPart) {
      const scale = 10n ** BigInt(fracPart.length);
      part += (BigInt(fracPart) * unit) / scale;
    }
    total += part;
    if (total > 2n ** 63n) invalid();
  }
  if (!negative && total === 2n ** 63n) invalid();
  return duration(negative ? -total : total);
}

function fraction(v: bigint, digits: number): [string, bigint] {
  let text = '';
  let printed = false;
  let rest = v;
  for (let i = 0; i < digits; i++) {
    const digit = rest % 10n;
    printed ||= digit !== 0n;
    if (printed) text = `${digit}${text}`;
    rest /= 10n;
  }
  return [printed ? `.${text}` : '', rest];
}

/** Duration.String: `1h30m0s`, `1.5s`, `500ms`, `0s`. */
export function durationString(d: bigint): string {
  if (d === 0n) return '0s';
  const negative = d < 0n;
  let u = negative ? -d : d;
  let out: string;
  if (u < NS) {
    if (u < 1000n) out = `${u}ns`;
    else if (u < 1_000_000n) {
      const [frac, whole] = fraction(u, 3);
      out = `${whole}${frac}µs`;
    } else {
      const [frac, whole] = fraction(u, 6);
      out = `${whole}${frac}ms`;
    }
  } else {
    const [frac, secondsTotal] = fraction(u, 9);
    u = secondsTotal;
    out = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return negative ? `-${out}` : out;
}
