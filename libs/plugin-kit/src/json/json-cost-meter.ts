/**
 * What JSON text costs once parsed is not its size: `[{},{},…]` builds an object for every 3 bytes (1 MiB of
 * it is ~20 MiB of heap), `[[[[…` a level of nesting for every byte. The meter reads the text as it arrives,
 * before JSON.parse builds anything, and counts what the parse would build: values (objects, arrays, strings,
 * numbers, literals) and object keys, and the nesting depth.
 */
export interface JsonCostLimits {
  /** Most values and keys. */
  maxValues: number;
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
}

/** Which bound a text passed. */
export type JsonCostExcess = 'values' | 'depth';

/** Deepest nesting accepted from the agent or an upstream: real documents are a few levels deep (Argo objects ~20). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

// Where the meter is: before the first non-whitespace character, between tokens, inside a number or literal
// (`true`, `1e5`), inside a string or just after a backslash in one; Off: counting is over (the top is not an
// object or array, so JSON.parse builds one scalar at most, or a bound was passed).
const START = 0;
const BETWEEN = 1;
const BARE = 2;
const IN_STRING = 3;
const ESCAPED = 4;
const OFF = 5;

/**
 * Counts incrementally, piece by piece (bytes as they come off a socket, split anywhere, even inside a UTF-8
 * sequence, or decoded text): only ASCII characters are structural, so the count never depends on where the
 * pieces are cut. It is an upper bound of what JSON.parse builds from valid JSON; for invalid JSON the parse
 * stops at the first error, having built less. A text that does not start with `{` or `[` builds one scalar at
 * most and is not counted.
 */
export class JsonCostMeter {
  private state = START;
  private depth = 0;
  /** Values and keys seen so far. */
  values = 0;
  /** Deepest nesting seen so far. */
  deepest = 0;

  constructor(private readonly limits: JsonCostLimits) {}

  /** The bound passed, once one is. */
  excess?: JsonCostExcess;

  /** Feeds the next piece; returns the bound passed (counting stops there), or undefined. */
  feed(piece: Uint8Array | string): JsonCostExcess | undefined {
    if (this.state === OFF) return this.excess;
    const text = typeof piece === 'string';
    const { maxValues, maxDepth } = this.limits;
    let { state, depth, values, deepest } = this;
    let excess: JsonCostExcess | undefined;
    for (let i = 0; i < piece.length; i++) {
      const c = text ? piece.charCodeAt(i) : piece[i];
      if (state === IN_STRING) {
        if (c === QUOTE) state = BETWEEN;
        else if (c === BACKSLASH) state = ESCAPED;
        continue;
      }
      if (state === ESCAPED) {
        state = IN_STRING;
        continue;
      }
      if (c === SPACE || c === LF || c === CR || c === TAB || c === COMMA || c === COLON) {
        if (state === BARE) state = BETWEEN;
        continue;
      }
      if (state === START && c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
        state = OFF;
        break;
      }
      if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        depth--;
        state = BETWEEN;
        continue;
      }
      if (state === BARE && c !== QUOTE && c !== OPEN_OBJECT && c !== OPEN_ARRAY) continue;
      if (++values > maxValues) {
        excess = 'values';
        break;
      }
      if (c === QUOTE) state = IN_STRING;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        state = BETWEEN;
        if (++depth > deepest) deepest = depth;
        if (depth > maxDepth) {
          excess = 'depth';
          break;
        }
      } else state = BARE;
    }
    this.state = excess ? OFF : state;
    this.excess = excess;
    this.depth = depth;
    this.values = values;
    this.deepest = deepest;
    return excess;
  }
}
