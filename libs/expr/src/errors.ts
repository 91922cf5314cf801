// Errors carry expr's location format: "<reason> (<line>:<column>)\n | <source line>\n | ....^".
import { constants } from 'node:buffer';

/** Thrown inside the library before a location is known; the API layer binds it to the source. */
export class Fault extends Error {
  constructor(
    readonly reason: string,
    public offset?: number,
  ) {
    super(reason);
    this.name = 'Fault';
  }
}

export function fail(reason: string, offset?: number): never {
  throw new Fault(reason, offset);
}

/** JavaScript ran out of stack: the expression nests deeper than this implementation can follow. */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && e.message.includes('call stack');
}

/**
 * A value JavaScript cannot hold, where Go would go on (a longer string, a longer list): the reason to report,
 * or undefined for any other error.
 */
export function beyondJavaScript(e: unknown): string | undefined {
  if (!(e instanceof RangeError)) return undefined;
  if (e.message === 'Invalid string length')
    return `string longer than ${constants.MAX_STRING_LENGTH} characters, the most JavaScript can hold (the real engine has no such limit)`;
  if (e.message === 'Invalid array length')
    return 'list longer than 4294967295 elements, the most JavaScript can hold (the real engine has no such limit)';
  return undefined;
}

export abstract class ExprError extends Error {
  /** The message without location and snippet, e.g. `unknown name event`. */
  readonly reason: string;
  /** 1-based line of the failing token. */
  readonly line: number;
  /** 1-based column (in code points) of the failing token. */
  readonly column: number;

  protected constructor(reason: string, source: string, offset: number) {
    const { line, column, snippet } = locate(source, offset);
    super(`${reason} (${line}:${column})${snippet}`);
    this.reason = reason;
    this.line = line;
    this.column = column;
  }
}

/** The expression does not parse or does not type-check (Argo: "failed to compile ..."). */
export class ExprCompileError extends ExprError {
  constructor(reason: string, source: string, offset: number) {
    super(reason, source, offset);
    this.name = 'ExprCompileError';
  }
}

/** Evaluation failed (Argo: "unable to evaluate expression ..." / "failed to evaluate ..."). */
export class ExprRuntimeError extends ExprError {
  constructor(reason: string, source: string, offset: number) {
    super(reason, source, offset);
    this.name = 'ExprRuntimeError';
  }
}

function locate(source: string, offset: number): { line: number; column: number; snippet: string } {
  const chars = Array.from(source);
  let line = 1;
  let column = 0;
  let lineStart = 0;
  for (let i = 0; i < chars.length && i < offset; i++) {
    if (chars[i] === '\n') {
      line++;
      column = 0;
      lineStart = i + 1;
    } else {
      column++;
    }
  }
  let lineEnd = chars.indexOf('\n', lineStart);
  if (lineEnd < 0) lineEnd = chars.length;
  const text = chars.slice(lineStart, lineEnd).join('').replace(/\t/g, ' ');
  let snippet = `\n | ${text}`;
  // Like expr, the caret line is left out when a multi-byte character precedes or is under the caret.
  const upToCaret = chars.slice(lineStart, lineStart + column + 1);
  if (upToCaret.every((c) => c.codePointAt(0)! < 0x80)) snippet += `\n | ${'.'.repeat(column)}^`;
  return { line, column: column + 1, snippet };
}
