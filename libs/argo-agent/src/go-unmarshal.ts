import { plainValue, type JsonTree } from './json-tree.js';

/**
 * Go's encoding/json Unmarshal into a described Go type, written from its documented behaviour:
 * - object keys match struct fields exactly, else case-insensitively (ASCII case, plus `ſ` ~ `s` and the
 *   Kelvin sign ~ `k`, the only non-ASCII runes that fold onto ASCII); unknown keys are ignored;
 * - every member is decoded into the SAME target in turn: a duplicate key merges into a struct, and an array
 *   is decoded element by element into the elements already there (then cut to its length);
 * - null sets a pointer or slice to nil and leaves anything else as it was;
 * - a value of the wrong JSON type is skipped, decoding goes on, and the FIRST such error is returned at the
 *   end (`json: cannot unmarshal string into Go struct field Outputs.node.outputs.parameters of type
 *   []v1alpha1.Parameter`: the innermost struct, then the path of field names);
 * - an error from a type's own UnmarshalJSON stops decoding at once.
 */
export type GoType =
  | { kind: 'struct'; type: string; fields: Record<string, GoType> }
  | { kind: 'ptr'; elem: GoType }
  | { kind: 'slice'; type: string; elem: GoType }
  | { kind: 'string'; type: string }
  | { kind: 'bool'; type: string }
  | { kind: 'int'; type: string; bits: 32 | 64 }
  /** An interface{} (or a type kept opaque here): stored as the plain value. */
  | { kind: 'any' }
  /** A type with its own UnmarshalJSON (called for every value; for null only when not behind a pointer). */
  | { kind: 'unmarshaler'; type: string; unmarshal(tree: JsonTree, current: unknown): unknown };

/** json.UnmarshalTypeError; `struct`/`field` are added from where the decoder was when it was raised. */
export class GoUnmarshalTypeError extends Error {
  struct?: string;
  field?: string;
  constructor(
    readonly value: string,
    readonly type: string,
  ) {
    super('');
    this.setMessage();
  }

  setContext(struct: string | undefined, stack: string[]): void {
    if (struct === undefined && stack.length === 0) return;
    this.struct = struct;
    this.field = stack.join('.');
    this.setMessage();
  }

  private setMessage(): void {
    this.message =
      this.struct !== undefined || this.field
        ? `json: cannot unmarshal ${this.value} into Go struct field ${this.struct ?? ''}.${this.field ?? ''} of type ${this.type}`
        : `json: cannot unmarshal ${this.value} into Go value of type ${this.type}`;
  }
}

/**
 * Thrown by an `unmarshaler` type that stands for a plain struct: the JSON kind does not fit, which Go saves
 * as an ordinary type error (decoding goes on) rather than stopping.
 */
export class GoKindError extends GoUnmarshalTypeError {}

/** encoding/json's fold: ASCII upper case; ſ (U+017F) folds to S and K (U+212A, Kelvin) to K. */
export function foldName(name: string): string {
  let out = '';
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out += ch >= 'a' && ch <= 'z' ? ch.toUpperCase() : ch;
    else if (c === 0x17f) out += 'S';
    else if (c === 0x212a) out += 'K';
    else out += ch; // folds onto another non-ASCII rune at best: never equal to an ASCII field name
  }
  return out;
}

export function zeroOf(type: GoType): unknown {
  switch (type.kind) {
    case 'struct':
      return {};
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int':
      return 0;
    default:
      return undefined;
  }
}

const INT_LIMIT = { 32: 2n ** 31n, 64: 2n ** 63n } as const;

class Decoder {
  private saved?: GoUnmarshalTypeError;
  private struct?: string;
  private readonly stack: string[] = [];

  /** Decodes `tree` into `current` (a value of `type`) and returns the new value. */
  decode(tree: JsonTree, type: GoType, current: unknown): unknown {
    try {
      const out = this.value(tree, type, current);
      if (this.saved) throw this.saved;
      return out;
    } catch (err) {
      // An aborting error keeps the context of where it was raised (the decoder did not unwind it).
      if (err instanceof GoUnmarshalTypeError && err !== this.saved && err.struct === undefined)
        err.setContext(this.struct, this.stack);
      throw err;
    }
  }

  private typeError(value: string, type: string): void {
    if (this.saved) return;
    this.saved = new GoUnmarshalTypeError(value, type);
    this.saved.setContext(this.struct, this.stack);
  }

  private value(tree: JsonTree, type: GoType, current: unknown): unknown {
    switch (type.kind) {
      case 'ptr':
        if (tree.kind === 'null') return undefined;
        return this.value(tree, type.elem, current === undefined ? zeroOf(type.elem) : current);
      case 'unmarshaler':
        try {
          return type.unmarshal(tree, current);
        } catch (err) {
          if (!(err instanceof GoKindError)) throw err;
          this.typeError(err.value, err.type);
          return current;
        }
      case 'any':
        return plainValue(tree);
      default:
    }
    switch (tree.kind) {
      case 'null':
        return type.kind === 'slice' ? undefined : current;
      case 'object':
        if (type.kind === 'struct') return this.object(tree.members, type, current);
        this.typeError('object', type.type);
        return current;
      case 'array':
        if (type.kind === 'slice') return this.array(tree.items, type, current);
        this.typeError('array', type.type);
        return current;
      case 'string':
        if (type.kind === 'string') return tree.value;
        this.typeError('string', type.type);
        return current;
      case 'bool':
        if (type.kind === 'bool') return tree.value;
        this.typeError('bool', type.type);
        return current;
      case 'number':
        if (type.kind === 'int') return this.int(tree.text, type, current);
        this.typeError('number', type.type);
        return current;
    }
  }

  private int(text: string, type: Extract<GoType, { kind: 'int' }>, current: unknown): unknown {
    const limit = INT_LIMIT[type.bits];
    if (/^-?\d+$/.test(text)) {
      const n = BigInt(text);
      if (n >= -limit && n < limit) return Number(n);
    }
    this.typeError(`number ${text}`, type.type);
    return current;
  }

  private object(
    members: Array<[string, JsonTree]>,
    type: Extract<GoType, { kind: 'struct' }>,
    current: unknown,
  ): Record<string, unknown> {
    const target = (current ?? {}) as Record<string, unknown>;
    const names = Object.keys(type.fields);
    for (const [key, child] of members) {
      const name = names.includes(key) ? key : names.find((n) => foldName(n) === foldName(key));
      if (name === undefined) continue;
      const outerStruct = this.struct;
      const depth = this.stack.length;
      this.stack.push(name);
      this.struct = type.type.replace(/^.*\./, '');
      const next = this.value(child, type.fields[name]!, target[name]);
      if (next === undefined) delete target[name];
      else target[name] = next;
      this.stack.length = depth;
      this.struct = outerStruct;
    }
    return target;
  }

  private array(items: JsonTree[], type: Extract<GoType, { kind: 'slice' }>, current: unknown): unknown[] {
    if (items.length === 0) return [];
    const target = Array.isArray(current) ? current : [];
    items.forEach((item, i) => {
      target[i] = this.value(item, type.elem, i < target.length ? target[i] : zeroOf(type.elem));
    });
    target.length = items.length;
    return target;
  }
}

/** Unmarshals `tree` into `current` (Go's json.Unmarshal into an existing value); throws Go's first error. */
export function goUnmarshal(tree: JsonTree, type: GoType, current?: unknown): unknown {
  return new Decoder().decode(tree, type, current === undefined ? zeroOf(type) : current);
}

/** strconv.FormatFloat(x, 'f', -1, 64): the shortest digits that read back as x, never an exponent. */
export function formatFloatF(x: number): string {
  if (Object.is(x, -0)) return '-0';
  const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const point = Number(exponent) + 1;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${out}` : out;
}
