import { fail } from './errors.js';
import { isGoSpace } from './go-strings.js';

export type TokenKind = 'Identifier' | 'Number' | 'String' | 'Operator' | 'Bracket' | 'EOF';

export interface Token {
  readonly kind: TokenKind;
  readonly value: string;
  /** Offset in code points from the start of the source. */
  readonly offset: number;
}

const WORD_OPERATORS = new Set('not in or and matches contains startsWith endsWith let if else'.split(' '));

export function isAlphaNumeric(c: string | undefined): boolean {
  return c !== undefined && (c === '_' || c === '$' || /^[\p{L}\p{Nd}]$/u.test(c));
}

/** Describes a token the way expr's error messages do: `Operator("!")`, `EOF`. */
export function describeToken(token: Token): string {
  return token.kind === 'EOF' ? 'EOF' : `${token.kind}(${JSON.stringify(token.value)})`;
}

export function tokenize(source: string): Token[] {
  return new Lexer(Array.from(source)).run();
}

class Lexer {
  private pos = 0;
  private start = 0;
  private readonly tokens: Token[] = [];

  constructor(private readonly chars: string[]) {}

  run(): Token[] {
    for (;;) {
      this.start = this.pos;
      const c = this.chars[this.pos++];
      if (c === undefined) {
        this.tokens.push({ kind: 'EOF', value: '', offset: Math.max(0, this.chars.length - 1) });
        return this.tokens;
      }
      this.scan(c);
    }
  }

  private scan(c: string): void {
    if (isGoSpace(c)) return;
    if (c === '"' || c === "'") return this.emit('String', this.scanQuoted(c));
    if (c === '`') return this.emit('String', this.scanRaw());
    if (c >= '0' && c <= '9') {
      this.pos--;
      return this.scanNumber();
    }
    switch (c) {
      case '?':
        this.accept('.?');
        return this.emitWord('Operator');
      case '/':
        if (this.accept('/')) return this.skipLineComment();
        if (this.accept('*')) return this.skipBlockComment();
        return this.emitWord('Operator');
      case '#':
        this.accept('#');
        this.emitWord('Operator');
        this.start = this.pos;
        while (isAlphaNumeric(this.peek())) this.pos++;
        if (this.pos > this.start) this.emitWord('Identifier');
        return;
      case '|':
        this.accept('|');
        return this.emitWord('Operator');
      case ':':
        this.accept(':');
        return this.emitWord('Operator');
      case '.':
        if (/[0-9]/.test(this.peek() ?? '')) {
          this.pos--;
          return this.scanNumber();
        }
        this.accept('.');
        return this.emitWord('Operator');
    }
    if ('([{)]}'.includes(c)) return this.emitWord('Bracket');
    if (',;%+-^'.includes(c)) return this.emitWord('Operator');
    if ('&!=*<>'.includes(c)) {
      this.accept('&=*');
      return this.emitWord('Operator');
    }
    if (isAlphaNumeric(c)) {
      while (isAlphaNumeric(this.peek())) this.pos++;
      return this.emitWord(WORD_OPERATORS.has(this.word()) ? 'Operator' : 'Identifier');
    }
    const code = c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(c);
    fail(`unrecognized character: U+${code}${printable ? ` '${c}'` : ''}`, this.start);
  }

  private scanNumber(): void {
    let digits = '0123456789_';
    if (this.accept('0')) {
      if (this.accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (this.accept('oO')) digits = '01234567_';
      else if (this.accept('bB')) digits = '01_';
    }
    this.acceptRun(digits);
    if (this.peek() === '.' && this.chars[this.pos + 1] !== '.') {
      this.pos++;
      this.acceptRun(digits);
    }
    if (this.accept('eE')) {
      this.accept('+-');
      this.acceptRun(digits);
    }
    if (isAlphaNumeric(this.peek())) {
      this.pos++;
      fail(`bad number syntax: ${JSON.stringify(this.word())}`, this.pos - 1);
    }
    this.emitWord('Number');
  }

  /**
   * Scans a '..' or ".." literal like expr: escapes are checked while scanning ("invalid char escape"), then
   * unescaped: every numeric escape (\x, octal, \u, \U, \u{..}) is a code point written as UTF-8, so "\xff" is
   * "ÿ" and a surrogate becomes U+FFFD; an octal escape above \377 or a code point above U+10FFFF is "unable to
   * unescape string" at the closing quote.
   */
  private scanQuoted(quote: string): string {
    let out = '';
    let unescapable = false;
    for (;;) {
      const c = this.chars[this.pos++];
      if (c === undefined || c === '\n') fail('literal not terminated', this.pos - 1);
      if (c === quote) break;
      if (c !== '\\') {
        out += c === '\r' ? '\n' : c;
        continue;
      }
      const e = this.chars[this.pos++];
      const simple: Record<string, string> = {
        a: '\x07',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
        v: '\v',
        '\\': '\\',
      };
      let cp: number;
      if (e !== undefined && e in simple) {
        out += simple[e];
        continue;
      } else if (e === quote) {
        out += quote;
        continue;
      } else if (e !== undefined && e >= '0' && e <= '7') {
        cp = this.escapeDigits(e, 8, 3);
        if (e > '3') unescapable = true;
      } else if (e === 'x') cp = this.escapeDigits(this.chars[this.pos++], 16, 2);
      else if (e === 'u' && this.chars[this.pos] === '{') {
        this.pos++;
        let digits = '';
        while (this.chars[this.pos] !== '}') {
          const d = this.chars[this.pos];
          if (d === undefined || !/^[0-9a-fA-F]$/.test(d) || digits.length >= 6)
            fail('invalid char escape', this.pos);
          digits += d;
          this.pos++;
        }
        if (digits === '') fail('invalid char escape', this.pos);
        this.pos++;
        cp = parseInt(digits, 16);
      } else if (e === 'u' || e === 'U')
        cp = this.escapeDigits(this.chars[this.pos++], 16, e === 'u' ? 4 : 8);
      else fail('invalid char escape', this.pos - 1);
      if (cp > 0x10ffff) unescapable = true;
      else out += cp >= 0xd800 && cp < 0xe000 ? '\ufffd' : String.fromCodePoint(cp);
    }
    if (unescapable) fail('unable to unescape string', this.pos - 1);
    return out;
  }

  private escapeDigits(first: string | undefined, base: number, count: number): number {
    let text = first ?? '';
    for (let i = 1; i < count; i++) text += this.chars[this.pos++] ?? '';
    const valid = base === 8 ? /^[0-7]+$/ : /^[0-9a-fA-F]+$/;
    if (text.length !== count || !valid.test(text)) fail('invalid char escape', this.pos - 1);
    return parseInt(text, base);
  }

  private scanRaw(): string {
    const end = this.chars.indexOf('`', this.pos);
    if (end < 0) fail('literal not terminated', this.chars.length);
    const text = this.chars.slice(this.pos, end).join('');
    this.pos = end + 1;
    return text;
  }

  private skipLineComment(): void {
    while (this.pos < this.chars.length && this.chars[this.pos] !== '\n') this.pos++;
  }

  private skipBlockComment(): void {
    for (;;) {
      const c = this.chars[this.pos++];
      if (c === undefined) fail('unclosed comment', this.chars.length);
      if (c === '*' && this.accept('/')) return;
    }
  }

  private peek(): string | undefined {
    return this.chars[this.pos];
  }

  private accept(valid: string): boolean {
    const c = this.chars[this.pos];
    if (c !== undefined && valid.includes(c)) {
      this.pos++;
      return true;
    }
    return false;
  }

  private acceptRun(valid: string): void {
    while (this.accept(valid));
  }

  private word(): string {
    return this.chars.slice(this.start, this.pos).join('');
  }

  private emitWord(kind: TokenKind): void {
    this.emit(kind, this.word());
  }

  private emit(kind: TokenKind, value: string): void {
    this.tokens.push({ kind, value, offset: this.start });
  }
}
