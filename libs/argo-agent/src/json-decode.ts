/**
 * Go's `json.NewDecoder(resp.Body).Decode(&reply)` as far as the bytes go: it reads the stream only up to the
 * end of the FIRST JSON value and never looks further. An object or array is complete at its closing
 * bracket (the rest of the body may stall or never come); a top-level string, number or literal needs one
 * more byte or the end of the stream. Syntax errors carry encoding/json's scanner texts (`invalid character
 * 'ï' looking for beginning of value`: a UTF-8 BOM is not skipped); a stream that ends inside the value is
 * `unexpected EOF` (transient for Argo's client); an empty or all-space body is `EOF` (not transient).
 */
export class GoDecodeError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

// Go's scanner counts only these four bytes as space (no BOM, no NBSP).
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const MAX_DEPTH = 10_000;

/** encoding/json quoteChar: the byte as a Go rune literal (`'x'`, `'\''`, `'"'`, `'\n'`, `'ï'` for 0xEF). */
export function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r' };
  if (named[c]) return `'\\${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if (c >= 0x80 && c <= 0x9f) return `'\\u00${c.toString(16).padStart(2, '0')}'`;
  if (c === 0xa0 || c === 0xad) return `'\\u00${c.toString(16)}'`;
  return `'${String.fromCharCode(c)}'`;
}

type State =
  | 'begin'
  | 'beginOrEmptyArray'
  | 'beginKeyOrEmpty'
  | 'beginKey'
  | 'afterKey'
  | 'endValue'
  | 'str'
  | 'strEsc'
  | 'strU'
  | 'neg'
  | 'zero'
  | 'int'
  | 'dot'
  | 'frac'
  | 'exp'
  | 'expSign'
  | 'expDigits'
  | 'literal';

/**
 * Byte-at-a-time reader of the first JSON value of a stream. `push` returns true once the value is complete;
 * `end` is called when the stream ends.
 */
export class FirstValueReader {
  private state: State = 'begin';
  /** 'o' object, 'a' array; for an object, whether a key (k) or a value (v) is being read. */
  private readonly stack: Array<'k' | 'v' | 'a'> = [];
  private strIsKey = false;
  private hexLeft = 0;
  private literalRest = '';
  private literalWord = '';
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private start = -1;
  private endAt = -1;

  get done(): boolean {
    return this.endAt >= 0;
  }

  /** The bytes of the first value (after `push` returned true or `end` succeeded). */
  value(): Buffer {
    return Buffer.concat(this.chunks).subarray(this.start, this.endAt);
  }

  push(chunk: Buffer): boolean {
    if (this.done) return true;
    const base = this.length;
    this.chunks.push(chunk);
    this.length += chunk.length;
    for (let i = 0; i < chunk.length; i++) {
      if (this.step(chunk[i]!, base + i)) return true;
    }
    return false;
  }

  /** The stream ended: the value is complete, or `EOF` (nothing but space) / `unexpected EOF`. */
  end(): void {
    if (this.done) return;
    if (this.start < 0) throw new GoDecodeError('EOF', false);
    // A top-level number or literal ends with the stream (Go feeds the scanner one space).
    if (this.stack.length === 0 && this.endsWithSpace()) {
      this.endAt = this.length;
      return;
    }
    throw new GoDecodeError('unexpected EOF', true);
  }

  private endsWithSpace(): boolean {
    switch (this.state) {
      case 'endValue':
      case 'zero':
      case 'int':
      case 'frac':
      case 'expDigits':
        return true;
      default:
        return false;
    }
  }

  private fail(c: number, context: string): never {
    throw new GoDecodeError(`invalid character ${quoteChar(c)} ${context}`, false);
  }

  /** Feeds one byte at absolute offset `at`; true when the first value is complete. */
  private step(c: number, at: number): boolean {
    switch (this.state) {
      case 'begin':
      case 'beginOrEmptyArray':
        if (isSpace(c)) return false;
        if (this.state === 'beginOrEmptyArray' && c === 0x5d) return this.close(at);
        return this.beginValue(c, at);
      case 'beginKeyOrEmpty':
      case 'beginKey':
        if (isSpace(c)) return false;
        if (this.state === 'beginKeyOrEmpty' && c === 0x7d) return this.close(at);
        if (c !== 0x22) this.fail(c, 'looking for beginning of object key string');
        this.strIsKey = true;
        this.state = 'str';
        return false;
      case 'afterKey':
        if (isSpace(c)) return false;
        if (c !== 0x3a) this.fail(c, 'after object key');
        this.stack[this.stack.length - 1] = 'v';
        this.state = 'begin';
        return false;
      case 'endValue':
        return this.endValue(c, at);
      case 'str':
        if (c === 0x22) {
          if (this.strIsKey) {
            this.strIsKey = false;
            this.state = 'afterKey';
            return false;
          }
          this.state = 'endValue';
          return false;
        }
        if (c === 0x5c) this.state = 'strEsc';
        else if (c < 0x20) this.fail(c, 'in string literal');
        return false;
      case 'strEsc':
        if (c === 0x75) {
          this.hexLeft = 4;
          this.state = 'strU';
        } else if ('"\\/bfnrt'.includes(String.fromCharCode(c))) this.state = 'str';
        else this.fail(c, 'in string escape code');
        return false;
      case 'strU':
        if (!isHex(c)) this.fail(c, 'in \\u hexadecimal character escape');
        if (--this.hexLeft === 0) this.state = 'str';
        return false;
      case 'neg':
        if (c === 0x30) this.state = 'zero';
        else if (isDigit(c) && c !== 0x30) this.state = 'int';
        else this.fail(c, 'in numeric literal');
        return false;
      case 'int':
        if (isDigit(c)) return false;
        return this.afterInteger(c, at);
      case 'zero':
        return this.afterInteger(c, at);
      case 'dot':
        if (!isDigit(c)) this.fail(c, 'after decimal point in numeric literal');
        this.state = 'frac';
        return false;
      case 'frac':
        if (isDigit(c)) return false;
        if (c === 0x65 || c === 0x45) {
          this.state = 'exp';
          return false;
        }
        return this.endValue(c, at);
      case 'exp':
        if (c === 0x2b || c === 0x2d) {
          this.state = 'expSign';
          return false;
        }
        return this.expSign(c);
      case 'expSign':
        return this.expSign(c);
      case 'expDigits':
        if (isDigit(c)) return false;
        return this.endValue(c, at);
      case 'literal': {
        const want = this.literalRest.charCodeAt(0);
        if (c !== want) this.fail(c, `in literal ${this.literalWord} (expecting '${this.literalRest[0]}')`);
        this.literalRest = this.literalRest.slice(1);
        if (this.literalRest === '') this.state = 'endValue';
        return false;
      }
    }
  }

  private expSign(c: number): boolean {
    if (!isDigit(c)) this.fail(c, 'in exponent of numeric literal');
    this.state = 'expDigits';
    return false;
  }

  private afterInteger(c: number, at: number): boolean {
    if (c === 0x2e) {
      this.state = 'dot';
      return false;
    }
    if (c === 0x65 || c === 0x45) {
      this.state = 'exp';
      return false;
    }
    return this.endValue(c, at);
  }

  private beginValue(c: number, at: number): boolean {
    if (this.start < 0) this.start = at;
    switch (c) {
      case 0x7b:
        this.push1('k', c);
        this.state = 'beginKeyOrEmpty';
        return false;
      case 0x5b:
        this.push1('a', c);
        this.state = 'beginOrEmptyArray';
        return false;
      case 0x22:
        this.strIsKey = false;
        this.state = 'str';
        return false;
      case 0x2d:
        this.state = 'neg';
        return false;
      case 0x30:
        this.state = 'zero';
        return false;
      case 0x74:
      case 0x66:
      case 0x6e:
        this.literalWord = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
        this.literalRest = this.literalWord.slice(1);
        this.state = 'literal';
        return false;
      default:
        if (isDigit(c)) {
          this.state = 'int';
          return false;
        }
        return this.fail(c, 'looking for beginning of value');
    }
  }

  private push1(kind: 'k' | 'a', c: number): void {
    if (this.stack.length >= MAX_DEPTH) this.fail(c, 'exceeded max depth');
    this.stack.push(kind);
  }

  /** A closing bracket at `at` ends the innermost object or array. */
  private close(at: number): boolean {
    this.stack.pop();
    if (this.stack.length === 0) {
      this.endAt = at + 1;
      return true;
    }
    this.state = 'endValue';
    return false;
  }

  /** After a complete value: a separator or a closing bracket; at the top level any byte ends it. */
  private endValue(c: number, at: number): boolean {
    const top = this.stack.at(-1);
    if (top === undefined) {
      this.endAt = at;
      return true;
    }
    this.state = 'endValue';
    if (isSpace(c)) return false;
    if (top === 'v') {
      if (c === 0x2c) {
        this.stack[this.stack.length - 1] = 'k';
        this.state = 'beginKey';
        return false;
      }
      if (c === 0x7d) return this.close(at);
      return this.fail(c, 'after object key:value pair');
    }
    if (c === 0x2c) {
      this.state = 'begin';
      return false;
    }
    if (c === 0x5d) return this.close(at);
    return this.fail(c, 'after array element');
  }
}

/** The bytes of the first JSON value of a complete body (throws GoDecodeError as the Decoder would). */
export function firstJsonValue(body: Buffer | string): Buffer {
  const reader = new FirstValueReader();
  if (!reader.push(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)) reader.end();
  return reader.value();
}
