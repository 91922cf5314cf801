import { isUtf8 } from 'node:buffer';

/**
 * Bytes as Go makes text of them once they reach JSON (the decoder's string literals, json.Marshal of a
 * message): each byte that does not start a valid UTF-8 sequence becomes one U+FFFD (utf8.DecodeRune answers
 * RuneError with size 1), where Node's decoder replaces a maximal invalid subsequence with one.
 */
export function goUtf8(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let out = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const size = runeSize(bytes, i);
    if (size > 0) {
      i += size;
      continue;
    }
    out += `${bytes.subarray(start, i).toString('utf8')}\uFFFD`;
    i += 1;
    start = i;
  }
  return out + bytes.subarray(start).toString('utf8');
}

const cont = (b: number | undefined): boolean => b !== undefined && b >= 0x80 && b <= 0xbf;

/** The length of the valid UTF-8 sequence at `i` (as utf8.DecodeRune accepts it), or 0. */
function runeSize(bytes: Buffer, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const b1 = bytes[i + 1];
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(b1) ? 2 : 0;
  const [lo, hi] =
    b0 === 0xe0
      ? [0xa0, 0xbf]
      : b0 === 0xed
        ? [0x80, 0x9f]
        : b0 === 0xf0
          ? [0x90, 0xbf]
          : b0 === 0xf4
            ? [0x80, 0x8f]
            : [0x80, 0xbf];
  if (b1 === undefined || b1 < lo || b1 > hi) return 0;
  if (b0 >= 0xe0 && b0 <= 0xef) return cont(bytes[i + 2]) ? 3 : 0;
  if (b0 >= 0xf0 && b0 <= 0xf4) return cont(bytes[i + 2]) && cont(bytes[i + 3]) ? 4 : 0;
  return 0;
}
