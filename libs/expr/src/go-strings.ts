// Go `strings` package behaviour that differs from the JS built-ins (Unicode spaces, simple case
// mapping, Split/Replace edge cases, byte offsets).
import { byteLength } from './go-bytes.js';
import { fail } from './errors.js';

const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;

export const isGoSpace = (c: string): boolean => GO_SPACE.test(c);

export function trimFunc(s: string, remove: (c: string) => boolean): string {
  const chars = Array.from(s);
  let start = 0;
  let end = chars.length;
  while (start < end && remove(chars[start]!)) start++;
  while (end > start && remove(chars[end - 1]!)) end--;
  return chars.slice(start, end).join('');
}

export const trimSpace = (s: string): string => trimFunc(s, isGoSpace);

const MAX_INT = 2n ** 63n - 1n;
/** The runtime's maxAlloc on linux/amd64 (1 << 48): a larger make() panics before asking for memory. */
const MAX_ALLOC = 2n ** 48n;

/** strings.Repeat with its panics; a string longer than JavaScript allows is the RangeError the evaluator reports. */
export function goRepeat(s: string, count: bigint): string {
  if (count === 0n) return '';
  if (count === 1n) return s;
  if (count < 0n) fail('strings: negative Repeat count');
  const length = BigInt(byteLength(s)) * count;
  if (length > MAX_INT) fail('strings: Repeat output length overflow');
  if (s === '') return '';
  if (length > MAX_ALLOC) fail('runtime error: makeslice: len out of range');
  return s.repeat(Number(count));
}

export function trimCutset(s: string, cutset: string): string {
  const set = new Set(Array.from(cutset));
  return trimFunc(s, (c) => set.has(c));
}

/** unicode.ToUpper/ToLower rune by rune: a rune whose full mapping is longer stays (ß) or keeps its base (İ → i). */
export function mapCase(s: string, upper: boolean): string {
  let out = '';
  for (const c of s) {
    // strings.Map decodes an invalid byte as U+FFFD and writes that character
    if (/^[\udc80-\udcff]$/.test(c)) {
      out += '\ufffd';
      continue;
    }
    const mapped = Array.from(upper ? c.toUpperCase() : c.toLowerCase());
    if (mapped.length === 1) out += mapped[0];
    else if (!upper && mapped.slice(1).every((m) => /^\p{M}$/u.test(m))) out += mapped[0];
    else out += c;
  }
  return out;
}

/** strings.Title: upper-cases the first letter of each word. */
export function title(s: string): string {
  let previous = ' ';
  let out = '';
  for (const c of s) {
    out += isSeparator(previous) ? mapCase(c, true) : c;
    previous = c;
  }
  return out;
}

function isSeparator(c: string): boolean {
  if (c.codePointAt(0)! <= 0x7f) return !/^[0-9A-Za-z_]$/.test(c);
  if (/^[\p{L}\p{Nd}]$/u.test(c)) return false;
  return isGoSpace(c);
}

/** strings.SplitN / SplitAfterN; n < 0 means all. */
export function split(s: string, sep: string, n: number, keepSeparator: boolean): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const chars = Array.from(s);
    if (n < 0 || n >= chars.length) return chars;
    return [...chars.slice(0, n - 1), chars.slice(n - 1).join('')];
  }
  const out: string[] = [];
  let rest = s;
  while (n < 0 || out.length < n - 1) {
    const index = rest.indexOf(sep);
    if (index < 0) break;
    out.push(rest.slice(0, index + (keepSeparator ? sep.length : 0)));
    rest = rest.slice(index + sep.length);
  }
  out.push(rest);
  return out;
}

/** strings.Replace; n < 0 replaces all; an empty `old` matches at every rune boundary. */
export function replace(s: string, old: string, replacement: string, n: number): string {
  if (old === replacement || n === 0) return s;
  if (old === '') {
    const chars = Array.from(s);
    const limit = n < 0 ? chars.length + 1 : Math.min(n, chars.length + 1);
    let out = '';
    for (let i = 0; i < limit; i++) out += replacement + (chars[i] ?? '');
    return out + chars.slice(limit).join('');
  }
  const parts = s.split(old);
  if (n < 0 || n >= parts.length - 1) return parts.join(replacement);
  return parts.slice(0, n + 1).join(replacement) + old + parts.slice(n + 1).join(old);
}

/** strings.Index / strings.LastIndex: the byte offset of the first/last occurrence, or -1. */
export function byteIndex(s: string, sub: string, last: boolean): number {
  const index = last ? s.lastIndexOf(sub) : s.indexOf(sub);
  return index < 0 ? -1 : byteLength(s.slice(0, index));
}
