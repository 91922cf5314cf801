// Shared fixtures for the spec files (not exported from the library).
import {
  compile,
  eventEnv,
  evaluate,
  execute,
  metadataEnv,
  ExprCompileError,
  ExprRuntimeError,
} from './index.js';
import type { ExprValue } from './index.js';

/** The request body of Argo's dispatch tests (conformance cases 6, 25-27). */
export const BODY = {
  foo: { bar: 'baz', numeric: 8675309, bool: true, pr: 112 },
  list: ['one', 'two'],
  formatted: 'My%Test%',
  s: 'x',
  n: 1,
  f: 1.5,
  b: true,
  l: ['one', 'two'],
  m: { z: 1, a: 2 },
  q: 'a"b',
  ids: [1, 2],
};

export const HEADERS = { 'x-valid': ['true'], 'x-multi': ['a, b'], 'x-twice': ['a', 'b'] };

export const ENV = eventEnv(BODY, HEADERS, 'my-discriminator', 'argo');
export const META_ENV = metadataEnv(ENV);

/** Evaluates in the selector/parameter environment (or the metadata one) and returns plain JS. */
export function value(source: string, env: Readonly<Record<string, unknown>> = ENV): unknown {
  return evaluate(source, env);
}

/** Evaluates and returns the Go-typed value model (ints are bigint). */
export function goValue(source: string, env: Readonly<Record<string, unknown>> = ENV): ExprValue {
  return execute(compile(source, env), env);
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

export function compileError(source: string, env: Readonly<Record<string, unknown>> = ENV): ExprCompileError {
  const error = caught(() => compile(source, env));
  if (!(error instanceof ExprCompileError)) throw new Error(`not a compile error: ${String(error)}`);
  return error;
}

export function runtimeError(source: string, env: Readonly<Record<string, unknown>> = ENV): ExprRuntimeError {
  const program = compile(source, env);
  const error = caught(() => execute(program, env));
  if (!(error instanceof ExprRuntimeError)) throw new Error(`not a runtime error: ${String(error)}`);
  return error;
}
