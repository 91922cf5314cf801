// Shared pieces of the sprig function files: Go-typed function values and sprig's own string conversion.
import { formatValue } from './go-format.js';
import { floatToInt, toGoFloat } from './builtins/numbers.js';
import { Fault } from './errors.js';
import { GoFunction, GoInt, goKindName, toInt64 } from './values.js';
import type { ExprValue, GoType } from './values.js';

export const ANY: GoType = 'interface {}';

/** sprig's strval: strings as they are, everything else through fmt `%v`. */
export const strval = (v: ExprValue): string => (typeof v === 'string' ? v : formatValue(v));

export const fn = (
  name: string,
  params: GoType[],
  result: GoType,
  impl: (args: ExprValue[]) => ExprValue,
  variadic?: GoType,
) => new GoFunction(name, params, result, impl, variadic);

export const str = (name: string, impl: (s: string) => ExprValue, result: GoType = 'string') =>
  fn(name, ['string'], result, ([s]) => impl(s as string));

/** reflect.Kind's name, as sprig prints it. */
export function kindName(v: ExprValue): string {
  if (v === null) return 'invalid';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'bigint') return 'int';
  if (Array.isArray(v)) return 'slice';
  if (v instanceof Map) return 'map';
  if (v instanceof GoFunction) return 'func';
  return goKindName(v);
}

/** spf13/cast v1.10 ToInt64: numbers truncate, strings parse with Go's prefixes (invalid → 0), bools are 0/1. */
export function castInt(v: ExprValue): bigint {
  if (typeof v === 'bigint') return v;
  if (v instanceof GoInt) return v.value;
  if (typeof v === 'number') return floatToInt(v);
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v !== 'string') return 0n;
  // cast v1.10's trimDecimal: a decimal string keeps its integer part ("3.5" → 3, "-.5" → -0)
  const decimal = v.includes('.') ? /^([-+]?\d*)(\.\d*)?$/.exec(v) : null;
  const integerPart = decimal?.[1];
  const text =
    integerPart === undefined
      ? v
      : integerPart === ''
        ? '0'
        : /^[-+]$/.test(integerPart)
          ? `${integerPart}0`
          : integerPart;
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+|[1-9][0-9_]*|0)$/.exec(text);
  if (!m) return 0n;
  let digits = m[2]!.replace(/_/g, '').toLowerCase();
  if (/^0[0-7]/.test(digits)) digits = `0o${digits.slice(1)}`;
  const value = m[1] === '-' ? -BigInt(digits) : BigInt(digits);
  return toInt64(value) === value ? value : 0n;
}

export function castFloat(v: ExprValue): number {
  if (typeof v === 'number') return v;
  if (v instanceof GoInt) return Number(v.value);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    // strconv.ParseFloat; cast gives 0 for what it rejects
    try {
      return toGoFloat(v);
    } catch (e) {
      if (e instanceof Fault) return 0;
      throw e;
    }
  }
  return 0;
}
