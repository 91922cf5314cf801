// Go's json.NewDecoder(body).Decode(&payload): reads the FIRST JSON value and ignores what follows it.
// Syntax errors carry encoding/json's scanner messages, which the Argo Server returns in its 400 reply.

/** A decode failure with Go's message (`invalid character '!' looking for beginning of value`, `unexpected EOF`). */
export class GoJsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoJsonSyntaxError';
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** encoding/json quoteChar: `'x'`, `'\''`, `'"'`, `'\n'`. A byte above 0x7f is shown as the rune of that value. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const quoted = JSON.stringify(String.fromCharCode(c));
  const inner = quoted.slice(1, -1).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
  return `'${inner}'`;
}

class Scanner {
  i = 0;
  constructor(private readonly b: Buffer) {}

  fail(context: string): never {
    if (this.i >= this.b.length) throw new GoJsonSyntaxError('unexpected EOF');
    throw new GoJsonSyntaxError(`invalid character ${quoteChar(this.b[this.i]!)} ${context}`);
  }

  peek(): number | undefined {
    return this.b[this.i];
  }

  skipSpace(): void {
    while (this.i < this.b.length && isSpace(this.b[this.i]!)) this.i++;
  }

  value(): void {
    this.skipSpace();
    const c = this.peek();
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    if (c === 0x2d || (c !== undefined && isDigit(c))) return this.number();
    if (c === 0x74) return this.literal('true');
    if (c === 0x66) return this.literal('false');
    if (c === 0x6e) return this.literal('null');
    this.fail('looking for beginning of value');
  }

  object(): void {
    this.i++;
    this.skipSpace();
    if (this.peek() === 0x7d) return void this.i++;
    for (;;) {
      this.skipSpace();
      if (this.peek() !== 0x22) this.fail('looking for beginning of object key string');
      this.string();
      this.skipSpace();
      if (this.peek() !== 0x3a) this.fail('after object key');
      this.i++;
      this.value();
      this.skipSpace();
      if (this.peek() === 0x2c) {
        this.i++;
        continue;
      }
      if (this.peek() === 0x7d) return void this.i++;
      this.fail('after object key:value pair');
    }
  }

  array(): void {
    this.i++;
    this.skipSpace();
    if (this.peek() === 0x5d) return void this.i++;
    for (;;) {
      this.value();
      this.skipSpace();
      if (this.peek() === 0x2c) {
        this.i++;
        continue;
      }
      if (this.peek() === 0x5d) return void this.i++;
      this.fail('after array element');
    }
  }

  string(): void {
    this.i++;
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('');
      if (c === 0x22) return void this.i++;
      if (c < 0x20) this.fail('in string literal');
      if (c === 0x5c) {
        this.i++;
        const e = this.peek();
        if (e === undefined) this.fail('');
        if (e === 0x75) {
          this.i++;
          for (let k = 0; k < 4; k++, this.i++) {
            const h = this.peek();
            if (h === undefined || !isHex(h)) this.fail('in \\u hexadecimal character escape');
          }
          continue;
        }
        if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) this.fail('in string escape code');
      }
      this.i++;
    }
  }

  number(): void {
    if (this.peek() === 0x2d) {
      this.i++;
      const c = this.peek();
      if (c === undefined || !isDigit(c)) this.fail('in numeric literal');
    }
    if (this.peek() === 0x30) this.i++;
    else while (this.i < this.b.length && isDigit(this.b[this.i]!)) this.i++;
    if (this.peek() === 0x2e) {
      this.i++;
      const c = this.peek();
      if (c === undefined || !isDigit(c)) this.fail('after decimal point in numeric literal');
      while (this.i < this.b.length && isDigit(this.b[this.i]!)) this.i++;
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.i++;
      if (this.peek() === 0x2b || this.peek() === 0x2d) this.i++;
      const c = this.peek();
      if (c === undefined || !isDigit(c)) this.fail('in exponent of numeric literal');
      while (this.i < this.b.length && isDigit(this.b[this.i]!)) this.i++;
    }
  }

  literal(word: string): void {
    for (let k = 0; k < word.length; k++, this.i++) {
      if (this.peek() !== word.charCodeAt(k)) this.fail(`in literal ${word} (expecting '${word[k]}')`);
    }
  }
}

/**
 * Decodes the first JSON value of `body`. Returns `undefined` for an empty (or all-whitespace) body, which
 * Argo treats like `null`: a nil payload. Bytes after the first value are ignored.
 */
export function decodeFirstJsonValue(body: Buffer): unknown {
  const scanner = new Scanner(body);
  scanner.skipSpace();
  if (scanner.i === body.length) return undefined;
  const start = scanner.i;
  scanner.value();
  return JSON.parse(body.subarray(start, scanner.i).toString('utf8')) as unknown;
}
