// The typed rendering the reference results use: `int:1`, `float64:1.5e+0`, `string:"x"`, `nil`,
// `[]interface {}[int:1,nil]`, `map[string]interface {}{string:"a"=>int:1}` (map entries sorted by their rendered
// key), `func:func(string) string`. `urepr` additionally sorts the rendered elements of every list, for results
// whose order comes from Go's random map iteration.
import { withReplacementCharacters } from '../../src/go-bytes.js';
import { timeString } from '../../src/go-time.js';
import { GoInt, GoLocation, GoTime, goTypeName } from '../../src/values.js';
import type { ExprValue } from '../../src/values.js';

const UTC_LOCATION = '&time.Location:{UTC [] []  0 0 <nil>}';

/** `%e` with the shortest digits and an unpadded exponent; ±Inf, NaN and -0 as Go prints them. */
function floatText(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (Object.is(f, -0)) return '-0e+0';
  return f.toExponential();
}

/** Printable ASCII as it is; `"`, `\` and every other code point as `\u{hex}`. */
function quoted(s: string): string {
  let out = '"';
  for (const ch of withReplacementCharacters(s)) {
    const code = ch.codePointAt(0)!;
    out += code >= 0x20 && code < 0x7f && ch !== '"' && ch !== '\\' ? ch : `\\u{${code.toString(16)}}`;
  }
  return `${out}"`;
}

export function goRepr(value: ExprValue, unordered = false): string {
  const type = goTypeName(value);
  switch (typeof value) {
    case 'boolean':
      return `bool:${value}`;
    case 'number':
      return `float64:${floatText(value)}`;
    case 'bigint':
      return `${type}:${value}`;
    case 'string':
      return `string:${quoted(value)}`;
  }
  if (value === null) return 'nil';
  if (value instanceof GoInt) return `${type}:${value.value}`;
  if (value instanceof GoTime) return `${type}:${timeString(value)}`;
  // the reference prints the *time.Location struct; UTC's has no zone tables
  if (value instanceof GoLocation) return value.name === 'UTC' ? UTC_LOCATION : `${type}:${value.name}`;
  if (Array.isArray(value)) {
    const items = value.map((v) => goRepr(v, unordered));
    if (unordered) items.sort();
    return `${type}[${items.join(',')}]`;
  }
  if (value instanceof Map) {
    const entries = [...value].map(([k, v]) => [goRepr(k, unordered), goRepr(v, unordered)] as const);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `${type}{${entries.map(([k, v]) => `${k}=>${v}`).join(',')}}`;
  }
  return `func:${type}`;
}
