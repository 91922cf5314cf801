import { BITWISE_BUILTINS } from './bitwise.js';
import { COLLECTION_BUILTINS } from './collections.js';
import { NUMBER_BUILTINS } from './numbers.js';
import type { Builtin } from './signatures.js';
import { STRING_BUILTINS } from './strings.js';
import { TIME_BUILTINS } from './time.js';

export { CLOSURE_BUILTINS, runClosureBuiltin } from './closures.js';
export type { Closure } from './closures.js';
export type { Builtin } from './signatures.js';

/** The expr builtins without a closure argument that this library implements. */
export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(
  Object.entries({
    ...STRING_BUILTINS,
    ...NUMBER_BUILTINS,
    ...COLLECTION_BUILTINS,
    ...BITWISE_BUILTINS,
    ...TIME_BUILTINS,
  }),
);
