// sprig's string helpers over Go's standard library: split/splitn (strings.Split into a `_<i>` map),
// plural, b32enc/b32dec (encoding/base32), adler32sum (hash/adler32), isAbs (path.IsAbs).
import { fromUtf8Bytes, utf8Bytes } from './go-bytes.js';
import { split } from './go-strings.js';
import { fn, str } from './sprig-kit.js';
import { tagged } from './values.js';
import type { ExprMap, GoFunction } from './values.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const PAD = 0x3d; // '='

/** The parts of a split as sprig returns them: map[string]string keyed `_0`, `_1`... */
function indexed(parts: readonly string[]): ExprMap {
  return tagged(new Map(parts.map((p, i) => [`_${i}`, p])), 'map[string]string');
}

function base32Encode(s: string): string {
  const bytes = utf8Bytes(s);
  let out = '';
  for (let i = 0; i < bytes.length; i += 5) {
    const block = bytes.slice(i, i + 5);
    const bits = block.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n) << BigInt(8 * (5 - block.length));
    const chars = Math.ceil((block.length * 8) / 5);
    for (let k = 0; k < 8; k++) out += k < chars ? BASE32[Number((bits >> BigInt(35 - 5 * k)) & 31n)] : '=';
  }
  return out;
}

/** encoding/base32 StdEncoding.DecodeString (newlines skipped); sprig returns the error text on failure. */
function base32Decode(s: string): string {
  const src = utf8Bytes(s).filter((b) => b !== 0x0d && b !== 0x0a);
  const corrupt = (at: number): string => `illegal base32 data at input byte ${at}`;
  const out: number[] = [];
  let pos = 0;
  let end = false;
  while (pos < src.length && !end) {
    const quantum: number[] = [];
    let length = 8;
    while (quantum.length < 8) {
      if (pos === src.length) return corrupt(pos - quantum.length);
      const c = src[pos++]!;
      const left = src.length - pos;
      const j = quantum.length;
      if (c === PAD && j >= 2 && left < 8) {
        if (left + j < 7) return corrupt(src.length);
        for (let k = 0; k < 7 - j; k++) if (left > k && src[pos + k] !== PAD) return corrupt(pos + k - 1);
        length = j;
        end = true;
        if ([1, 3, 6].includes(length)) return corrupt(pos - 1);
        break;
      }
      const value = BASE32.indexOf(String.fromCharCode(c));
      if (value < 0) return corrupt(pos - 1);
      quantum.push(value);
    }
    const bits = quantum.reduce((acc, v) => (acc << 5n) | BigInt(v), 0n) << BigInt(5 * (8 - quantum.length));
    const count = { 8: 5, 7: 4, 5: 3, 4: 2, 2: 1 }[length] ?? 0;
    for (let k = 0; k < count; k++) out.push(Number((bits >> BigInt(32 - 8 * k)) & 0xffn));
  }
  return fromUtf8Bytes(out);
}

function adler32(s: string): number {
  let a = 1;
  let b = 0;
  for (const byte of utf8Bytes(s)) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return b * 65536 + a;
}

export const TEXT_FUNCTIONS: readonly GoFunction[] = [
  fn('split', ['string', 'string'], 'map[string]interface {}', ([sep, s]) =>
    indexed(split(s as string, sep as string, -1, false)),
  ),
  fn('splitn', ['string', 'int', 'string'], 'map[string]interface {}', ([sep, n, s]) =>
    indexed(split(s as string, sep as string, Number(n as bigint), false)),
  ),
  fn('plural', ['string', 'string', 'int'], 'string', ([one, many, count]) => (count === 1n ? one! : many!)),
  str('b32enc', base32Encode),
  str('b32dec', base32Decode),
  str('adler32sum', (s) => String(adler32(s))),
  str('isAbs', (s) => s.startsWith('/'), 'bool'),
];
