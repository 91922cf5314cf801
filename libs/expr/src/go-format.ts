// Go's fmt `%v` and strconv float formatting, as used by expr's string() and sprig's toString.
import { formatTimeValue } from './go-time.js';
import { fromJs, GoFunction, GoInt, GoLocation, GoTime } from './values.js';
import type { ExprValue, MapKey } from './values.js';

/** Shortest decimal digits and decimal exponent of a finite, non-zero float: 1234.5 → ['12345', 3]. */
function shortestDigits(f: number): [string, number] {
  const [mantissa, exponent] = Math.abs(f).toExponential().split('e') as [string, string];
  return [mantissa.replace('.', ''), Number(exponent)];
}

/** strconv.FormatFloat(f, 'e', -1, 64): `1e-05`, `1.234567e+06`. */
export function formatFloatE(f: number): string {
  const [digits, exp] = shortestDigits(f);
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const sign = exp < 0 ? '-' : '+';
  return `${f < 0 ? '-' : ''}${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** strconv.FormatFloat(f, 'g', -1, 64), i.e. Go `%v` of a float64: 112, 123456, 1.234567e+06, 1e-05. */
export function formatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [digits, exp] = shortestDigits(f);
  // For the shortest representation Go decides between %e and %f as if the precision were 6.
  if (exp < -4 || exp >= 6) return formatFloatE(f);
  const sign = f < 0 ? '-' : '';
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Go `fmt.Sprintf("%v", value)`. Accepts the value model or plain JS values (JS numbers are float64). */
export function goFormat(value: unknown): string {
  return formatValue(fromJs(value));
}

export function formatValue(value: ExprValue): string {
  switch (typeof value) {
    case 'boolean':
      return String(value);
    case 'number':
      return formatFloat(value);
    case 'bigint':
      return value.toString();
    case 'string':
      return value;
  }
  if (value === null) return '<nil>';
  if (value instanceof GoFunction) return '0x0';
  if (value instanceof GoInt || value instanceof GoTime || value instanceof GoLocation)
    return formatTimeValue(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(' ')}]`;
  const entries = [...value].sort(([a], [b]) => compareKeys(a, b));
  return `map[${entries.map(([k, v]) => `${formatValue(k)}:${formatValue(v)}`).join(' ')}]`;
}

const KEY_ORDER = ['object', 'boolean', 'bigint', 'number', 'string'];

/** fmt sorts map keys: by kind first (for interface keys), then by value; strings in byte (code point) order. */
export function compareKeys(a: MapKey, b: MapKey): number {
  const ka = KEY_ORDER.indexOf(typeof a);
  const kb = KEY_ORDER.indexOf(typeof b);
  if (ka !== kb) return ka - kb;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (a instanceof GoInt && b instanceof GoInt) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a === b || a === null || b === null) return 0;
  return a < b ? -1 : 1;
}

/** Go compares strings byte-wise; UTF-8 byte order equals code point order (unlike JS's UTF-16 order). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** strconv.Quote, used by sprig's quote. */
export function goQuote(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    const named: Record<string, string> = {
      '\x07': 'a',
      '\b': 'b',
      '\f': 'f',
      '\n': 'n',
      '\r': 'r',
      '\t': 't',
      '\v': 'v',
    };
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (named[c]) out += `\\${named[c]}`;
    else if (/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(c)) out += c;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
