// Compile-time argument checks for builtins, with expr's messages.
import { fail } from '../errors.js';
import { assignable, natureName } from '../natures.js';
import type { Nature } from '../natures.js';
import type { ExprValue, GoType } from '../values.js';

export interface Builtin {
  /** Checks argument natures at compile time; returns the result nature or fails with a compile error. */
  readonly check: (args: readonly Nature[]) => Nature;
  readonly call: (args: ExprValue[]) => ExprValue;
}

export type Overload = readonly [params: readonly GoType[], result: Nature];

/** For builtins declared with Go signatures: the first overload that fits wins, else the last error is reported. */
export function overloads(name: string, ...candidates: Overload[]): (args: readonly Nature[]) => Nature {
  return (args) => {
    let lastError = `no matching overload for ${name}`;
    for (const [params, result] of candidates) {
      const error = argumentError(name, params, args);
      if (error === undefined) return result;
      lastError = error;
    }
    return fail(lastError);
  };
}

export function argumentError(
  name: string,
  params: readonly GoType[],
  args: readonly Nature[],
): string | undefined {
  if (args.length > params.length) return `too many arguments to call ${name}`;
  if (args.length < params.length) return `not enough arguments to call ${name}`;
  for (const [i, arg] of args.entries()) {
    const param = params[i]!;
    if (arg.kind === 'nil' && !acceptsNil(param)) {
      return `cannot use nil as argument (type ${param}) to call ${name}`;
    }
    if (!assignable(arg, param))
      return `cannot use ${natureName(arg)} as argument (type ${param}) to call ${name} `; // sic: Go's text
  }
  return undefined;
}

/** expr's checkArguments lets a nil argument through only to a pointer or an interface parameter. */
function acceptsNil(param: GoType): boolean {
  return param === 'interface {}' || param.startsWith('*');
}

export function expectArity(args: readonly Nature[], expected: number): void {
  if (args.length !== expected) {
    fail(`invalid number of arguments (expected ${expected}, got ${args.length})`);
  }
}
