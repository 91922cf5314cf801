// expr's bitwise builtins on Go's 64-bit int: bitand, bitor, bitxor, bitnand, bitnot, bitshl, bitshr, bitushr.
import { fail } from '../errors.js';
import { INT } from '../natures.js';
import { goTypeName, toInt64 } from '../values.js';
import type { ExprValue } from '../values.js';
import { overloads } from './signatures.js';
import type { Builtin } from './signatures.js';

/** builtin's toInt: any Go integer; anything else is `cannot use <%T> as argument (type int)`. */
function intArgument(name: string, value: ExprValue | undefined): bigint {
  if (typeof value === 'bigint') return value;
  const type = value === null || value === undefined ? '<nil>' : goTypeName(value);
  return fail(`cannot use ${type} as argument (type int) to call ${name}`);
}

function shiftCount(y: bigint): bigint {
  if (y < 0n) fail(`invalid operation: negative shift count ${y} (type int)`);
  return y > 64n ? 64n : y;
}

function binary(name: string, op: (x: bigint, y: bigint) => bigint): Builtin {
  return {
    check: overloads(name, [['int', 'int'], INT]),
    call: (args) => {
      if (args.length !== 2) fail(`invalid number of arguments for ${name} (expected 2, got ${args.length})`);
      return toInt64(op(intArgument(name, args[0]), intArgument(name, args[1])));
    },
  };
}

export const BITWISE_BUILTINS: Readonly<Record<string, Builtin>> = {
  bitand: binary('bitand', (x, y) => x & y),
  bitor: binary('bitor', (x, y) => x | y),
  bitxor: binary('bitxor', (x, y) => x ^ y),
  bitnand: binary('bitnand', (x, y) => x & ~y),
  bitshl: binary('bitshl', (x, y) => x << shiftCount(y)),
  // Go's >> on a signed int is arithmetic: large counts give 0 or -1, as BigInt's >> does.
  bitshr: binary('bitshr', (x, y) => x >> shiftCount(y)),
  bitushr: binary('bitushr', (x, y) => BigInt.asUintN(64, x) >> shiftCount(y)),
  bitnot: {
    check: overloads('bitnot', [['int'], INT]),
    call: (args) => {
      if (args.length !== 1) fail(`invalid number of arguments for bitnot (expected 1, got ${args.length})`);
      return toInt64(~intArgument('bitnot', args[0]));
    },
  },
};
