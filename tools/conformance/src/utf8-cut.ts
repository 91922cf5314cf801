/**
 * The text of bytes kept up to a byte bound: when the bound fell inside a character, that character's first
 * bytes are left out, so the text ends with the character before it instead of a U+FFFD the plugin never sent.
 * Only for bytes the kit cut itself; a reply that ended in broken UTF-8 is decoded as it came.
 */
export function textOfCut(bytes: Buffer): string {
  return bytes.subarray(0, wholeCharacters(bytes)).toString('utf8');
}

/** The length of `bytes` without an incomplete UTF-8 sequence at its end. */
function wholeCharacters(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return size > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
