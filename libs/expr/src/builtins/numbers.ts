import { fail } from '../errors.js';
import { FLOAT, INT, isArray, isNumber, isString, isUnknown, natureName, UNKNOWN } from '../natures.js';
import type { Nature } from '../natures.js';
import { compare, isNumber as isNumericValue } from '../runtime.js';
import { GoInt, goTypeName, toInt64 } from '../values.js';
import type { ExprValue } from '../values.js';
import { expectArity } from './signatures.js';
import type { Builtin } from './signatures.js';

const MIN_INT64 = -(2n ** 63n);

/** Go's int(float64) for the values where it is defined; NaN and overflow give math.MinInt64 like amd64. */
export function floatToInt(f: number): bigint {
  if (!Number.isFinite(f) || Math.abs(f) >= 2 ** 63) return MIN_INT64;
  return BigInt(Math.trunc(f));
}

/** builtin.Int (also Argo's asInt). */
export function toGoInt(x: ExprValue): bigint {
  if (typeof x === 'bigint') return x;
  if (typeof x === 'number') return floatToInt(x);
  if (typeof x === 'string') {
    if (!/^[+-]?\d+$/.test(x)) fail(`invalid operation: int(${x})`);
    const value = BigInt(x);
    if (toInt64(value) !== value) fail(`invalid operation: int(${x})`);
    return value;
  }
  return fail(`invalid operation: int(${goTypeName(x)})`);
}

const GO_FLOAT = /^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)$/i;

/** A hexadecimal float literal as strconv.ParseFloat reads it (`0x1p-2`, `0x1.8P+3`): the `p` exponent is required. */
function hexFloat(text: string): number | undefined {
  const m = /^([+-]?)0[xX]_?([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)?(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(text);
  if (!m || (m[2] === undefined && !m[3])) return undefined;
  const whole = (m[2] ?? '').replace(/_/g, '');
  const fraction = m[3] ?? '';
  const mantissa = BigInt(`0x${whole}${fraction}` === '0x' ? '0' : `0x${whole}${fraction}`);
  const value = Number(mantissa) * 2 ** (Number(m[4]) - 4 * fraction.length);
  if (!Number.isFinite(value)) return undefined; // out of range: ParseFloat fails
  return m[1] === '-' ? -value : value;
}

/** builtin.Float (also Argo's asFloat); strings are parsed like strconv.ParseFloat. */
export function toGoFloat(x: ExprValue): number {
  if (typeof x === 'number') return x;
  if (typeof x === 'bigint') return Number(x);
  if (typeof x === 'string') {
    const hex = hexFloat(x);
    if (hex !== undefined) return hex;
    // strconv.ParseFloat takes underscores between digits: float("1_000") is 1000
    const text = /^[+-]?\d+(_\d+)*(\.\d*)?([eE][+-]?\d+)?$/.test(x) ? x.replace(/_/g, '') : x;
    if (!GO_FLOAT.test(text)) fail(`invalid operation: float(${x})`);
    const lower = text.toLowerCase();
    const body = lower.replace(/^[+-]/, '');
    const negative = lower.startsWith('-');
    let value = body.startsWith('inf') ? Infinity : body === 'nan' ? NaN : Number(body);
    if (body.startsWith('inf') || body === 'nan') value = negative ? -value : value;
    else if (!Number.isFinite(value)) fail(`invalid operation: float(${x})`);
    else if (negative) value = -value;
    return value;
  }
  return fail(`invalid operation: float(${goTypeName(x)})`);
}

function numericCheck(name: string, result: (arg: Nature) => Nature): (args: readonly Nature[]) => Nature {
  return (args) => {
    expectArity(args, 1);
    const arg = args[0]!;
    if (!isNumber(arg) && !isUnknown(arg)) fail(`invalid argument for ${name} (type ${natureName(arg)})`);
    return result(arg);
  };
}

function rounding(name: string, fn: (f: number) => number): Builtin {
  return {
    check: numericCheck(name, () => FLOAT),
    call: ([x]) => {
      if (typeof x === 'number') return fn(x);
      if (typeof x === 'bigint') return Number(x);
      return fail(`invalid argument for ${name} (type ${goTypeName(x ?? null)})`);
    },
  };
}

function conversion(name: string, result: Nature, convert: (x: ExprValue) => ExprValue): Builtin {
  return {
    check: (args) => {
      expectArity(args, 1);
      const arg = args[0]!;
      if (!isNumber(arg) && !isString(arg) && !isUnknown(arg))
        fail(`invalid argument for ${name} (type ${natureName(arg)})`);
      return result;
    },
    call: ([x]) => convert(x ?? null),
  };
}

/** Numbers from the arguments, descending into arrays (max, min, mean and median accept both). */
function collectNumbers(
  name: string,
  args: readonly ExprValue[],
  out: (number | bigint | GoInt)[] = [],
): (number | bigint | GoInt)[] {
  for (const arg of args) {
    if (Array.isArray(arg)) collectNumbers(name, arg, out);
    else if (isNumericValue(arg))
      out.push(arg); // Go reflects on every int kind: a string's bytes, sprig's int64
    else fail(`invalid argument for ${name} (type ${goTypeName(arg)})`);
  }
  return out;
}

const toFloat = (n: number | bigint | GoInt): number => Number(n instanceof GoInt ? n.value : n);

/** expr's validateAggregateFunc: unknown for a list or an unknown argument, else the first argument's type. */
function aggregateCheck(name: string): (args: readonly Nature[]) => Nature {
  return (args) => {
    if (args.length === 0) fail(`not enough arguments to call ${name}`);
    for (const arg of args) {
      if (isUnknown(arg) || isArray(arg)) return UNKNOWN;
      if (!isNumber(arg)) fail(`invalid argument for ${name} (type ${natureName(arg)})`);
    }
    return args[0]!;
  };
}

function extreme(name: string, wanted: number): Builtin {
  return {
    check: aggregateCheck(name),
    call: (args) => {
      if (args.length === 1 && !Array.isArray(args[0]) && !isNumericValue(args[0]!)) {
        return args[0]!;
      }
      let best: ExprValue = null;
      for (const n of collectNumbers(name, args)) {
        if (best === null || compare(n, best, '<') === wanted) best = n;
      }
      return best;
    },
  };
}

/** math.Round: half away from zero. */
const goRound = (f: number): number => (f < 0 ? -Math.round(-f) : Math.round(f));

export const NUMBER_BUILTINS: Readonly<Record<string, Builtin>> = {
  abs: {
    check: numericCheck('abs', (arg) => arg),
    call: ([x]) => {
      if (typeof x === 'bigint') return toInt64(x < 0n ? -x : x);
      if (typeof x === 'number') return x < 0 ? -x : x; // Go's Abs keeps -0
      return fail(`invalid argument for abs (type ${goTypeName(x ?? null)})`);
    },
  },
  ceil: rounding('ceil', Math.ceil),
  floor: rounding('floor', Math.floor),
  round: rounding('round', goRound),
  int: conversion('int', INT, toGoInt),
  float: conversion('float', FLOAT, toGoFloat),
  max: extreme('max', 1),
  min: extreme('min', -1),
  mean: {
    check: aggregateCheck('mean'),
    call: (args) => {
      const values = collectNumbers('mean', args).map(toFloat);
      return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
    },
  },
  median: {
    check: aggregateCheck('median'),
    call: (args) => {
      const values = collectNumbers('median', args)
        .map(toFloat)
        .sort((a, b) => a - b);
      const n = values.length;
      if (n === 0) return 0;
      return n % 2 === 1 ? values[(n - 1) / 2]! : (values[n / 2 - 1]! + values[n / 2]!) / 2;
    },
  },
};
