// Shared pieces of the sprig function files: Go-typed function values and sprig's own string conversion.
import { formatValue } from './go-format.js';
import { GoFunction } from './values.js';
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
