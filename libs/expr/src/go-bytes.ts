// Go strings are byte sequences. Strings stay JS strings here; a byte that is not part of valid UTF-8 (from
// slicing inside a character, or from fromBase64) is kept as the lone surrogate U+DC00+byte, so it survives
// further slicing and concatenation, and is shown as U+FFFD wherever Go would show the replacement character.

const ESCAPED_BYTE = 0xdc00;

/** The UTF-8 bytes of a string (escaped bytes back to themselves). */
export function utf8Bytes(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= ESCAPED_BYTE + 0x80 && cp <= ESCAPED_BYTE + 0xff) out.push(cp - ESCAPED_BYTE);
    else if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) {
      const c = cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp;
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    } else
      out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return out;
}

/** Length and minimum code point of a UTF-8 sequence starting with `lead`, as Go's decoder accepts it. */
function sequence(lead: number): [number, number] | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80];
  if (lead >= 0xe0 && lead <= 0xef) return [3, 0x800];
  if (lead >= 0xf0 && lead <= 0xf4) return [4, 0x10000];
  return undefined;
}

/** Bytes to a string: valid UTF-8 as characters, every other byte escaped. */
export function fromUtf8Bytes(bytes: readonly number[]): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    const seq = sequence(b);
    if (seq && i + seq[0] <= bytes.length) {
      let cp: number;
      const [n, min] = seq;
      cp = b & (0xff >> (n + 1));
      for (let k = 1; k < n; k++) {
        const c = bytes[i + k]!;
        if ((c & 0xc0) !== 0x80) {
          cp = -1;
          break;
        }
        cp = (cp << 6) | (c & 0x3f);
      }
      if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) cp = -1;
      if (cp >= 0) {
        out += String.fromCodePoint(cp);
        i += n;
        continue;
      }
    }
    out += String.fromCharCode(ESCAPED_BYTE + b);
    i++;
  }
  return out;
}

/** Go's `len(s)`: the number of bytes (counted as utf8Bytes encodes, without building them). */
export function byteLength(s: string): number {
  // Without escaped bytes, the UTF-8 length JavaScript counts natively (a lone surrogate is U+FFFD, 3 bytes).
  if (!/[\udc80-\udcff]/.test(s)) return Buffer.byteLength(s, 'utf8');
  let length = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80 || (cp >= ESCAPED_BYTE + 0x80 && cp <= ESCAPED_BYTE + 0xff)) length += 1;
    else if (cp < 0x800) length += 2;
    else if (cp < 0x10000) length += 3;
    else length += 4;
  }
  return length;
}

/** The characters of a string as `Array.from(s)` splits them (a surrogate pair is one), without building them. */
export function characterCount(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** The string as Go shows invalid UTF-8 when decoding it (json.Marshal, %q, range): U+FFFD per bad byte. */
export function withReplacementCharacters(s: string): string {
  return s.replace(/[\udc80-\udcff]/g, (c, offset: number) =>
    offset > 0 && /[\ud800-\udbff]/.test(s[offset - 1]!) ? c : '\ufffd',
  );
}
