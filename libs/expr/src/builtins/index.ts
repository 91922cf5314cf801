import { BITWISE_BUILTINS } from './bitwise.js';
import { COLLECTION_BUILTINS } from './collections.js';
import { NUMBER_BUILTINS } from './numbers.js';
import type { Builtin } from './signatures.js';
import { STRING_BUILTINS } from './strings.js';

export { CLOSURE_BUILTINS, runClosureBuiltin } from './closures.js';
export type { Closure } from './closures.js';
export type { Builtin } from './signatures.js';

/** The expr builtins without a closure argument that this library implements. */
export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(
  Object.entries({ ...STRING_BUILTINS, ...NUMBER_BUILTINS, ...COLLECTION_BUILTINS, ...BITWISE_BUILTINS }),
);

/** expr builtins deliberately left out: calling one is the compile error `unsupported function <name>`. */
export const UNSUPPORTED_BUILTINS: ReadonlySet<string> = new Set(
  'now duration date timezone'.split(' '),
);
