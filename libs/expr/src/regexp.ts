// Translates Go RE2 syntax into an equivalent JavaScript RegExp (always compiled with the `u` flag).
// Perl classes, `.`, `^`/`$` and POSIX classes are expanded explicitly so that JS's Unicode-aware
// defaults cannot change the meaning. Syntax Go rejects is rejected with Go's message; the one RE2
// feature JS cannot express here (case-insensitivity for only part of a pattern) is rejected too.
import { fail } from './errors.js';

type Range = readonly [number, number];

const MAX = 0x10ffff;
const DIGIT: Range[] = [[0x30, 0x39]];
const SPACE: Range[] = [
  [0x09, 0x0a],
  [0x0c, 0x0d],
  [0x20, 0x20],
];
const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];

const POSIX: Readonly<Record<string, Range[]>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: DIGIT,
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

interface Flags {
  readonly i: boolean;
  readonly m: boolean;
  readonly s: boolean;
  readonly U: boolean;
}

const cache = new Map<string, RegExp>();

/** Compiles a Go regexp; throws a Fault with Go's `error parsing regexp: ...` text when Go would reject it. */
export function compileGoRegexp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    re = new Translator(pattern).translate();
    if (cache.size > 500) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

const hex = (cp: number): string => `\\u{${cp.toString(16)}}`;
const rangesToClass = (ranges: readonly Range[], negate = false): string =>
  `[${negate ? '^' : ''}${ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('')}]`;

class Translator {
  private readonly chars: string[];
  private pos = 0;
  private globalIgnoreCase = false;

  constructor(private readonly pattern: string) {
    this.chars = Array.from(pattern);
  }

  translate(): RegExp {
    // `(?i)` in the leading flag groups applies to the whole pattern and maps to the JS `i` flag.
    const leading = /^(?:\(\?[imsU]*\))+/.exec(this.pattern);
    this.globalIgnoreCase = leading?.[0].includes('i') ?? false;
    const body = this.alternation({ i: this.globalIgnoreCase, m: false, s: false, U: false }, 0);
    if (this.pos < this.chars.length) this.error('unexpected )', this.pattern);
    try {
      return new RegExp(body, this.globalIgnoreCase ? 'iu' : 'u');
    } catch (e) {
      return fail(`unsupported regexp (cannot translate ${JSON.stringify(this.pattern)}): ${String(e)}`);
    }
  }

  private error(code: string, fragment: string): never {
    return fail(`error parsing regexp: ${code}: \`${fragment}\``);
  }

  private unsupported(what: string): never {
    return fail(`unsupported regexp syntax (not translatable to JavaScript): ${what} in \`${this.pattern}\``);
  }

  private alternation(flags: Flags, depth: number): string {
    // As in Go, `(?flags)` lasts until the end of the enclosing group, across `|`.
    const state = { flags };
    const branches = [this.concatenation(state, depth)];
    while (this.chars[this.pos] === '|') {
      this.pos++;
      branches.push(this.concatenation(state, depth));
    }
    return branches.join('|');
  }

  private concatenation(state: { flags: Flags }, depth: number): string {
    let out = '';
    let lastAtom: { quantifier?: string } | undefined;
    while (this.pos < this.chars.length) {
      const c = this.chars[this.pos]!;
      if (c === '|') break;
      if (c === ')') {
        if (depth === 0) this.error('unexpected )', this.pattern);
        break;
      }
      const flags = state.flags;
      const quantifier = this.quantifier(flags);
      if (quantifier !== undefined) {
        if (!lastAtom) this.error('missing argument to repetition operator', quantifier.text);
        if (lastAtom.quantifier)
          this.error('invalid nested repetition operator', lastAtom.quantifier + quantifier.text);
        out += quantifier.js;
        lastAtom.quantifier = quantifier.text;
        continue;
      }
      if (c === '(' && this.chars[this.pos + 1] === '?' && /^[-imsU]/.test(this.chars[this.pos + 2] ?? '')) {
        const group = this.flagGroup(flags, depth);
        if (group.kind === 'set') {
          state.flags = group.flags;
          lastAtom = undefined;
          continue;
        }
        out += group.js;
      } else out += this.atom(flags, depth);
      lastAtom = {};
    }
    return out;
  }

  private quantifier(flags: Flags): { js: string; text: string } | undefined {
    const begin = this.pos;
    const c = this.chars[this.pos]!;
    let js: string;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      js = c;
    } else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.chars.slice(this.pos, this.pos + 24).join(''));
      if (!match) return undefined;
      const min = Number(match[1]);
      const max = match[3] ? Number(match[3]) : match[2] ? Infinity : min;
      if (min > 1000 || (max !== Infinity && (max > 1000 || max < min)))
        this.error('invalid repeat count', match[0]);
      this.pos += match[0].length;
      js = match[0];
    } else return undefined;
    let lazy = false;
    if (this.chars[this.pos] === '?') {
      this.pos++;
      lazy = true;
    }
    const text = this.chars.slice(begin, this.pos).join('');
    return { js: js + (lazy !== flags.U ? '?' : ''), text };
  }

  private flagGroup(
    flags: Flags,
    depth: number,
  ): { kind: 'set'; flags: Flags } | { kind: 'group'; js: string } {
    const begin = this.pos;
    this.pos += 2;
    let negate = false;
    const next: { i: boolean; m: boolean; s: boolean; U: boolean } = { ...flags };
    for (;;) {
      const c = this.chars[this.pos++];
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') next[c] = !negate;
      else if (c === '-' && !negate) negate = true;
      else if (c === ')' || c === ':') {
        if (next.i !== this.globalIgnoreCase)
          this.unsupported('case-insensitive flag (?i) on part of a pattern');
        if (c === ')') return { kind: 'set', flags: next };
        const inner = this.alternation(next, depth + 1);
        if (this.chars[this.pos] !== ')') this.error('missing closing )', this.pattern);
        this.pos++;
        return { kind: 'group', js: `(?:${inner})` };
      } else this.error('invalid or unsupported Perl syntax', this.chars.slice(begin, this.pos).join(''));
    }
  }

  private atom(flags: Flags, depth: number): string {
    const c = this.chars[this.pos++]!;
    switch (c) {
      case '(':
        return this.group(flags, depth);
      case '[':
        return this.characterClass();
      case '.':
        return flags.s ? '[\\u{0}-\\u{10ffff}]' : '[^\\n]';
      case '^':
        return flags.m ? '(?<![^\\n])' : '^';
      case '$':
        return flags.m ? '(?![^\\n])' : '$';
      case '\\':
        return this.escape();
      default:
        return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
    }
  }

  private group(flags: Flags, depth: number): string {
    if (this.chars[this.pos] === '?') {
      const rest = this.chars.slice(this.pos, this.pos + 3).join('');
      if (rest.startsWith('?P<') || rest.startsWith('?<')) {
        this.pos += rest.startsWith('?P<') ? 3 : 2;
        const end = this.chars.indexOf('>', this.pos);
        const name = end < 0 ? '' : this.chars.slice(this.pos, end).join('');
        if (!/^\w+$/.test(name)) this.error('invalid named capture', this.pattern);
        this.pos = end + 1;
      } else if (rest.startsWith('?:')) {
        this.pos += 2;
        const inner = this.alternation(flags, depth + 1);
        this.closeGroup();
        return `(?:${inner})`;
      } else {
        this.error('invalid or unsupported Perl syntax', `(${rest.slice(0, 2)}`);
      }
    }
    const inner = this.alternation(flags, depth + 1);
    this.closeGroup();
    // Named groups become plain groups: names do not affect matching and JS restricts them more than Go.
    return `(${inner})`;
  }

  private closeGroup(): void {
    if (this.chars[this.pos] !== ')') this.error('missing closing )', this.pattern);
    this.pos++;
  }

  /** An escape outside a class. */
  private escape(): string {
    const c = this.chars[this.pos];
    if (c === undefined) this.error('trailing backslash at end of expression', '');
    switch (c) {
      case 'A':
        this.pos++;
        return '^';
      case 'z':
        this.pos++;
        return '$';
      case 'b':
      case 'B':
        this.pos++;
        return `\\${c}`;
      case 'Q': {
        this.pos++;
        const rest = this.chars.slice(this.pos).join('');
        const end = rest.indexOf('\\E');
        const literal = end < 0 ? rest : rest.slice(0, end);
        this.pos += Array.from(literal).length + (end < 0 ? 0 : 2);
        return Array.from(literal)
          .map((ch) => (/[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch))
          .join('');
      }
    }
    const item = this.classEscape();
    return typeof item === 'string' ? item : rangesToClass(item);
  }

  /** Escapes valid both inside and outside classes: a string for \p classes, ranges otherwise. */
  private classEscape(): string | Range[] {
    const start = this.pos - 1;
    const c = this.chars[this.pos++];
    const fragment = (): string => this.chars.slice(start, this.pos).join('');
    if (c === undefined) return this.error('trailing backslash at end of expression', '');
    const perl: Record<string, Range[]> = { d: DIGIT, s: SPACE, w: WORD };
    if (perl[c]) return perl[c];
    if (perl[c.toLowerCase()]) return complement(perl[c.toLowerCase()]!);
    const simple: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
    if (simple[c] !== undefined) return [[simple[c], simple[c]]];
    if (c >= '0' && c <= '7') {
      if (c !== '0' && !/[0-7]/.test(this.chars[this.pos] ?? ''))
        this.error('invalid escape sequence', fragment());
      let digits = c;
      while (digits.length < 3 && /[0-7]/.test(this.chars[this.pos] ?? '')) digits += this.chars[this.pos++];
      const cp = parseInt(digits, 8);
      return [[cp, cp]];
    }
    if (c === 'x') {
      let digits: string;
      if (this.chars[this.pos] === '{') {
        const end = this.chars.indexOf('}', this.pos);
        digits = end < 0 ? '' : this.chars.slice(this.pos + 1, end).join('');
        this.pos = end < 0 ? this.chars.length : end + 1;
      } else {
        digits = this.chars.slice(this.pos, this.pos + 2).join('');
        this.pos += 2;
      }
      const cp = /^[0-9a-fA-F]{1,8}$/.test(digits) ? parseInt(digits, 16) : NaN;
      if (!(cp <= MAX)) this.error('invalid escape sequence', fragment());
      return [[cp, cp]];
    }
    if (c === 'p' || c === 'P') return this.unicodeClass(c === 'P', fragment);
    const cp = c.codePointAt(0)!;
    if (cp < 0x80 && !/[0-9A-Za-z]/.test(c)) return [[cp, cp]];
    return this.error('invalid escape sequence', fragment());
  }

  private unicodeClass(negated: boolean, fragment: () => string): string {
    let name: string;
    if (this.chars[this.pos] === '{') {
      const end = this.chars.indexOf('}', this.pos);
      if (end < 0) this.error('invalid character class range', fragment());
      name = this.chars.slice(this.pos + 1, end).join('');
      this.pos = end + 1;
    } else name = this.chars[this.pos++] ?? '';
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    const property = /^[A-Z][a-z]?$/.test(name) || name === 'Any' ? name : `Script=${name}`;
    const js = `\\${negated ? 'P' : 'p'}{${property}}`;
    try {
      new RegExp(js, 'u');
    } catch {
      this.error('invalid character class range', fragment());
    }
    return js;
  }

  private characterClass(): string {
    const start = this.pos - 1;
    let negated = false;
    if (this.chars[this.pos] === '^') {
      negated = true;
      this.pos++;
    }
    const ranges: Range[] = [];
    const properties: string[] = [];
    let first = true;
    for (;;) {
      const c = this.chars[this.pos];
      if (c === undefined) this.error('missing closing ]', this.chars.slice(start).join(''));
      if (c === ']' && !first) {
        this.pos++;
        break;
      }
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.chars.slice(this.pos, this.pos + 12).join(''));
      if (posix) {
        const set = POSIX[posix[2]!];
        if (!set) this.error('invalid character class range', posix[0]);
        ranges.push(...(posix[1] ? complement(set) : set));
        this.pos += posix[0].length;
        continue;
      }
      const itemStart = this.pos;
      const low = this.classAtom();
      if (typeof low === 'string' || low.length !== 1 || low[0]![0] !== low[0]![1]) {
        if (typeof low === 'string') properties.push(low);
        else ranges.push(...low);
        continue;
      }
      if (
        this.chars[this.pos] === '-' &&
        this.chars[this.pos + 1] !== ']' &&
        this.chars[this.pos + 1] !== undefined
      ) {
        this.pos++;
        const high = this.classAtom();
        const text = this.chars.slice(itemStart, this.pos).join('');
        if (typeof high === 'string' || high.length !== 1 || high[0]![0] !== high[0]![1]) {
          this.error('invalid character class range', text);
        }
        if (high[0]![0] < low[0]![0]) this.error('invalid character class range', text);
        ranges.push([low[0]![0], high[0]![0]]);
      } else ranges.push(low[0]!);
    }
    const body = rangesToClass(ranges).slice(1, -1) + properties.join('');
    return `[${negated ? '^' : ''}${body}]`;
  }

  private classAtom(): string | Range[] {
    const c = this.chars[this.pos++]!;
    if (c === '\\') return this.classEscape();
    const cp = c.codePointAt(0)!;
    return [[cp, cp]];
  }
}
