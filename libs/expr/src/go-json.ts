// Go encoding/json emulation: sorted map keys, HTML escaping, Go escapes, Go number text.
import { fail, Fault } from './errors.js';
import { compareCodePoints, formatFloat } from './go-format.js';
import { timeJson } from './go-time.js';
import {
  fromJs,
  GoFunction,
  GoInt,
  GoLocation,
  GoTime,
  goTypeName,
  hasAnyKeys,
  isNilSlice,
} from './values.js';
import type { ExprValue } from './values.js';

export interface MarshalOptions {
  /** json.Marshal escapes < > & as \u003c \u003e \u0026 (SetEscapeHTML(true) is the default). */
  readonly escapeHTML?: boolean;
  /** MarshalIndent with this indent (expr's toJSON uses two spaces). */
  readonly indent?: string;
}

export function marshal(value: ExprValue, options: MarshalOptions = {}): string {
  return encode(value, { escapeHTML: options.escapeHTML ?? true, indent: options.indent ?? '' }, '');
}

function encode(value: ExprValue, options: Required<MarshalOptions>, prefix: string): string {
  switch (typeof value) {
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'number':
      if (!Number.isFinite(value)) fail(`json: unsupported value: ${formatFloat(value)}`);
      return Object.is(value, -0) ? '-0' : String(value);
    case 'string':
      return quote(value, options.escapeHTML);
  }
  if (value === null || isNilSlice(value)) return 'null';
  if (value instanceof GoInt) return value.value.toString();
  if (value instanceof GoTime) return quote(timeJson(value), options.escapeHTML);
  if (value instanceof GoLocation) return '{}';
  if (value instanceof GoFunction || (value instanceof Map && hasAnyKeys(value))) {
    fail(`json: unsupported type: ${goTypeName(value)}`);
  }
  const inner = prefix + options.indent;
  const open = options.indent ? `\n${inner}` : '';
  const close = options.indent ? `\n${prefix}` : '';
  const separator = options.indent ? `,\n${inner}` : ',';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${open}${value.map((v) => encode(v, options, inner)).join(separator)}${close}]`;
  }
  if (value.size === 0) return '{}';
  const keys = [...value.keys()].map(String).sort(compareCodePoints);
  const colon = options.indent ? ': ' : ':';
  const fields = keys.map(
    (k) => `${quote(k, options.escapeHTML)}${colon}${encode(value.get(k) ?? null, options, inner)}`,
  );
  return `{${open}${fields.join(separator)}${close}}`;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** A Go JSON string literal; a lone surrogate (an invalid byte in Go) becomes the text `\ufffd`. */
export function quote(s: string, escapeHTML = true): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (SHORT_ESCAPES[c] !== undefined) out += SHORT_ESCAPES[c];
    else if (
      cp < 0x20 ||
      cp === 0x2028 ||
      cp === 0x2029 ||
      (escapeHTML && (c === '<' || c === '>' || c === '&'))
    ) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else if (cp >= 0xdc80 && cp <= 0xdcff)
      out += '\\ufffd'; // an invalid byte: Go writes this escape
    else if (cp >= 0xd800 && cp < 0xe000)
      out += '\ufffd'; // a lone surrogate from the host: U+FFFD
    else out += c;
  }
  return `${out}"`;
}

/** json.Unmarshal into interface{}: objects become maps, every number a float64. */
/** Go decodes a JSON number into float64 and fails on one out of its range (1e400), which JS makes Infinity. */
function checkFloatRange(text: string): void {
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, (m) => ' '.repeat(m.length));
  for (const [number] of outsideStrings.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    if (!Number.isFinite(Number(number)))
      fail(`json: cannot unmarshal number ${number} into Go value of type float64`);
  }
}

export function unmarshal(text: string): ExprValue {
  if (text.trim() === '') fail('unexpected end of JSON input');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
    checkFloatRange(text);
  } catch (e) {
    if (e instanceof Fault) throw e;
    // JS engines word this differently; report a stable, Go-like message instead.
    const position = Number(/position (\d+)/.exec(e instanceof Error ? e.message : '')?.[1] ?? NaN);
    const c = Array.from(text.slice(position))[0];
    return fail(
      c === undefined
        ? 'unexpected end of JSON input'
        : `invalid character ${JSON.stringify(c)} in JSON input`,
    );
  }
  return fromJs(parsed);
}
