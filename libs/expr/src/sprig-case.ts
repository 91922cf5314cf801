// sprig's case conversions over huandu/xstrings v1.5.0. snakecase and kebabcase: ToSnakeCase/ToKebabCase, which split a string into
// words (upper-case runs, letters, numbers, punctuation, connectors) and join them lower-cased with `_`/`-`.
import { isGoSpace, mapCase } from './go-strings.js';

type WordType = 'invalid' | 'number' | 'upper' | 'alphabet' | 'connector' | 'punct' | 'other';

/** An invalid byte (kept as U+DC80..U+DCFF) or U+FFFD: what utf8.DecodeRune reports as RuneError. */
const isRuneError = (c: string): boolean => /^[\udc80-\udcff\ufffd]$/.test(c);
const isConnector = (c: string): boolean => c === '-' || c === '_' || isGoSpace(c);
const isUpper = (c: string): boolean => /^\p{Lu}$/u.test(c);
const isPunct = (c: string): boolean => /^\p{P}$/u.test(c);
const isNumber = (c: string): boolean => /^\p{N}$/u.test(c);

/** xstrings' isAlphabet: a letter, but not a CJK ideograph. */
function isAlphabet(c: string): boolean {
  if (!/^\p{L}$/u.test(c)) return false;
  const r = c.codePointAt(0)!;
  if (r < 0x3400) return true;
  return !((r >= 0x4e00 && r <= 0x9fcc) || (r >= 0x3400 && r <= 0x4d85) || (r >= 0x20000 && r <= 0x2b81d));
}

/** nextValidRune: the first rune that is not RuneError and the characters up to it; `prev` when none. */
function nextValidRune(chars: readonly string[], at: number, prev: string): [string, number] {
  for (let i = at; i < chars.length; i++) if (!isRuneError(chars[i]!)) return [chars[i]!, i - at + 1];
  return [prev, chars.length - at];
}

/** nextWord: the type of the word starting at `start` and where it ends. */
function nextWord(chars: readonly string[], start: number): [WordType, number] {
  if (start >= chars.length) return ['invalid', start];
  let [r, size] = nextValidRune(chars, start, '\ufffd');
  let end = start + size;
  if (isRuneError(r)) return ['invalid', end];
  const extend = (keep: (c: string) => boolean): void => {
    while (end < chars.length) {
      [r, size] = nextValidRune(chars, end, r);
      if (!keep(r)) break;
      end += size;
    }
  };
  if (isConnector(r)) {
    extend(isConnector);
    return ['connector', end];
  }
  if (isPunct(r)) {
    extend(isPunct);
    return ['punct', end];
  }
  if (isUpper(r)) {
    if (end >= chars.length) return ['upper', end];
    [r, size] = nextValidRune(chars, end, r);
    if (isUpper(r)) {
      let previousSize = size;
      end += size;
      while (end < chars.length) {
        [r, size] = nextValidRune(chars, end, r);
        if (!isUpper(r)) break;
        previousSize = size;
        end += size;
      }
      // `HTTPServer`: the last capital starts the next word
      if (end < chars.length && isAlphabet(r)) end -= previousSize;
    } else if (isAlphabet(r)) {
      end += size;
      extend((c) => isAlphabet(c) && !isUpper(c));
    }
    return ['upper', end];
  }
  if (isAlphabet(r)) {
    extend((c) => isAlphabet(c) && !isUpper(c));
    return ['alphabet', end];
  }
  if (isNumber(r)) {
    extend(isNumber);
    return ['number', end];
  }
  extend((c) => !(isConnector(c) || isAlphabet(c) || isNumber(c) || isPunct(c)));
  return ['other', end];
}

/** xstrings' camelCaseToLowerCase. */
export function toDelimitedCase(s: string, connector: string): string {
  const chars = Array.from(s);
  if (chars.length === 0) return '';
  let out = '';
  const lower = (type: WordType, word: string[]): void => {
    if (type !== 'upper' && type !== 'connector') out += word.join('');
    else
      for (const c of word)
        out += isRuneError(c) ? '\ufffd' : isConnector(c) ? connector : isUpper(c) ? mapCase(c, false) : c;
  };
  // the current word: chars[cursor.at, cursor.end) of type cursor.type
  const cursor = { at: 0, type: 'invalid' as WordType, end: 0 };
  [cursor.type, cursor.end] = nextWord(chars, 0);
  const take = (): WordType => {
    cursor.at = cursor.end;
    [cursor.type, cursor.end] = nextWord(chars, cursor.at);
    return cursor.type;
  };
  const word = (): string[] => chars.slice(cursor.at, cursor.end);
  let type: WordType = cursor.type;
  while (cursor.end < chars.length) {
    if (type !== 'connector') lower(type, word());
    const previous = type;
    const last = word();
    type = take();
    if (previous === 'number') {
      while (type === 'alphabet' || type === 'number') {
        lower(type, word());
        type = take();
      }
      if (type !== 'invalid' && type !== 'punct' && type !== 'connector') out += connector;
    } else if (previous === 'connector') {
      lower(previous, last);
    } else if (previous !== 'punct') {
      if (type !== 'number') {
        if (type !== 'connector' && type !== 'punct') out += connector;
        continue;
      }
      if (cursor.end >= chars.length) continue;
      const digits = word();
      type = take();
      if (type !== 'alphabet') {
        lower('number', digits);
        if (type !== 'connector' && type !== 'punct') out += connector;
        continue;
      }
      out += connector;
      lower('number', digits);
      while (type === 'alphabet' || type === 'number') {
        lower(type, word());
        type = take();
      }
      if (type !== 'invalid' && type !== 'connector' && type !== 'punct') out += connector;
    }
  }
  lower(type, word());
  return out;
}

/**
 * xstrings.ToPascalCase (sprig's camelcase): connectors (`-`, `_`, spaces) are dropped and the next letter
 * upper-cased, a run of connectors keeps all but the last, leading connectors stay, the first letter is
 * upper-cased; when that first letter was already upper case, the upper-case letters right after it are
 * lowered (`HTTPServer` → `Httpserver`), other letters keep their case (`aGVs` → `AGVs`).
 */
export function toPascalCase(s: string): string {
  const chars = Array.from(s);
  let out = '';
  let i = 0;
  while (i < chars.length && isConnector(chars[i]!)) out += chars[i++];
  if (i === chars.length) return out;
  let leadingUpper = isUpper(chars[i]!);
  let current = mapCase(chars[i++]!, true);
  for (; i < chars.length; i++) {
    const previous = current;
    current = chars[i]!;
    if (isConnector(current) && isConnector(previous)) out += previous;
    else if (isConnector(previous)) current = mapCase(current, true);
    else {
      if (leadingUpper) {
        if (isUpper(current)) current = mapCase(current, false);
        else leadingUpper = false;
      }
      out += previous;
    }
  }
  return out + current;
}
