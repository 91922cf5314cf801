// sprig's word functions, which call Masterminds/goutils v1.1.1: abbrev, abbrevboth, initials, untitle,
// swapcase, wrap, wrapWith. goutils works on bytes where it indexes (`str[i]`, `str[a:b]`) and on runes where
// it converts (`[]rune(str)`), and these functions keep both habits.
import { fromUtf8Bytes, utf8Bytes, withReplacementCharacters } from './go-bytes.js';
import { isGoSpace, mapCase } from './go-strings.js';
import { fn, str } from './sprig-kit.js';
import type { GoFunction } from './values.js';

const SPACE = 0x20;
const ELLIPSIS = [0x2e, 0x2e, 0x2e];

/** unicode.ToTitle: upper case, except the Latin digraphs (ǅ) and Georgian letters, whose title form differs. */
function toTitle(c: string): string {
  const cp = c.codePointAt(0)!;
  const digraphs: Record<number, number> = { 0x1c4: 0x1c5, 0x1c6: 0x1c5, 0x1c7: 0x1c8, 0x1c9: 0x1c8 };
  Object.assign(digraphs, { 0x1ca: 0x1cb, 0x1cc: 0x1cb, 0x1f1: 0x1f2, 0x1f3: 0x1f2 });
  if (cp in digraphs) return String.fromCodePoint(digraphs[cp]!);
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return c;
  return mapCase(c, true);
}

/** A string as `[]rune(s)` sees it: every invalid byte is U+FFFD. */
const runes = (s: string): string[] => Array.from(withReplacementCharacters(s));

/** goutils.AbbreviateFull, byte-indexed; its errors (width below 4, or below 7 with an offset) give "". */
function abbreviateFull(bytes: number[], offset: number, maxWidth: number): number[] {
  if (bytes.length === 0) return [];
  if (maxWidth < 4) return [];
  if (bytes.length <= maxWidth) return bytes;
  let start = Math.min(offset, bytes.length);
  if (bytes.length - start < maxWidth - 3) start = bytes.length - (maxWidth - 3);
  if (start <= 4) return [...bytes.slice(0, maxWidth - 3), ...ELLIPSIS];
  if (maxWidth < 7) return [];
  if (start + maxWidth - 3 < bytes.length)
    return [...ELLIPSIS, ...abbreviateFull(bytes.slice(start), 0, maxWidth - 3)];
  return [...ELLIPSIS, ...bytes.slice(bytes.length - (maxWidth - 3))];
}

/** goutils.WrapCustom: breaks at the last space before the column; long words split only when asked. */
function wrapCustom(s: string, width: number, newLine: string, wrapLongWords: boolean): string {
  const bytes = utf8Bytes(s);
  if (bytes.length === 0) return '';
  const separator = utf8Bytes(newLine === '' ? '\n' : newLine);
  const column = Math.max(width, 1);
  const out: number[] = [];
  let offset = 0;
  while (bytes.length - offset > column) {
    if (bytes[offset] === SPACE) {
      offset++;
      continue;
    }
    const space = bytes.slice(offset, column + offset + 1).lastIndexOf(SPACE);
    if (space >= 0) {
      out.push(...bytes.slice(offset, offset + space), ...separator);
      offset += space + 1;
    } else if (wrapLongWords) {
      out.push(...bytes.slice(offset, offset + column), ...separator);
      offset += column;
    } else {
      const next = bytes.indexOf(SPACE, offset + column);
      if (next < 0) {
        out.push(...bytes.slice(offset));
        offset = bytes.length;
      } else {
        out.push(...bytes.slice(offset, next), ...separator);
        offset = next + 1;
      }
    }
  }
  out.push(...bytes.slice(offset));
  return fromUtf8Bytes(out);
}

/** goutils.Initials: the first byte of every word, each byte read as the rune of the same number. */
function initials(s: string): string {
  let out = '';
  let gap = true;
  for (const b of utf8Bytes(s)) {
    const c = String.fromCharCode(b);
    if (isGoSpace(c)) gap = true;
    else if (gap) {
      out += c;
      gap = false;
    }
  }
  return out;
}

/** goutils.Uncapitalize: lower-cases the first rune of every space-separated word. */
function uncapitalize(s: string): string {
  if (s === '') return s;
  let next = true;
  return runes(s)
    .map((c) => {
      if (isGoSpace(c)) {
        next = true;
        return c;
      }
      if (!next) return c;
      next = false;
      return mapCase(c, false);
    })
    .join('');
}

/** goutils.SwapCase: upper and title case to lower; lower case to title after a space, else to upper. */
function swapCase(s: string): string {
  let afterSpace = true;
  return runes(s)
    .map((c) => {
      if (/^[\p{Lu}\p{Lt}]$/u.test(c)) {
        afterSpace = false;
        return mapCase(c, false);
      }
      if (/^\p{Ll}$/u.test(c)) {
        const swapped = afterSpace ? toTitle(c) : mapCase(c, true);
        afterSpace = false;
        return swapped;
      }
      afterSpace = isGoSpace(c);
      return c;
    })
    .join('');
}

export const WORD_FUNCTIONS: readonly GoFunction[] = [
  fn('abbrev', ['int', 'string'], 'string', ([width, s]) => {
    const w = Number(width as bigint);
    return w < 4 ? s! : fromUtf8Bytes(abbreviateFull(utf8Bytes(s as string), 0, w));
  }),
  fn('abbrevboth', ['int', 'int', 'string'], 'string', ([left, right, s]) => {
    const [l, r] = [Number(left as bigint), Number(right as bigint)];
    if (r < 4 || (l > 0 && r < 7)) return s!;
    return fromUtf8Bytes(abbreviateFull(utf8Bytes(s as string), l, r));
  }),
  str('initials', initials),
  str('untitle', uncapitalize),
  str('swapcase', swapCase),
  fn('wrap', ['int', 'string'], 'string', ([width, s]) =>
    wrapCustom(s as string, Number(width as bigint), '', false),
  ),
  fn('wrapWith', ['int', 'string', 'string'], 'string', ([width, separator, s]) =>
    wrapCustom(s as string, Number(width as bigint), separator as string, true),
  ),
];
