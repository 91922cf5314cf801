import type { Node } from './ast.js';
import { check } from './checker.js';
import { envNatures, metadataEnv, toEnvMap } from './environment.js';
import type { Environment } from './environment.js';
import { beyondJavaScript, ExprCompileError, ExprRuntimeError, Fault, isStackOverflow } from './errors.js';
import type { EvaluationBudget } from './budget.js';
import { evaluateNode } from './evaluator.js';
import { compileConstantPatterns, fold } from './optimizer.js';
import { rewrite } from './optimizer-rewrites.js';
import { parse } from './parser.js';
import { toJs } from './values.js';
import type { ExprValue } from './values.js';

/** A parsed and type-checked expression. */
export interface Program {
  readonly source: string;
  readonly node: Node;
}

export interface EvaluateOptions {
  /** Adds Argo's metadata-expression names: sprig, toJson, jsonpath, asInt, asFloat. */
  readonly metadataFunctions?: boolean;
}

/**
 * Parses and checks `source` the way Argo's `expr.Compile(source, expr.Env(env))` does: the env's actual
 * values fix the top-level names and their types. Throws ExprCompileError.
 */
export function compile(source: string, env: Environment): Program {
  try {
    const parsed = parse(source);
    check(parsed, envNatures(toEnvMap(env)));
    const node = rewrite(fold(parsed));
    compileConstantPatterns(node);
    return { source, node };
  } catch (e) {
    throw asExprError(e, source, ExprCompileError);
  }
}

/**
 * Runs a program and returns the Go-typed value model (ints are bigint, maps are Map). Throws ExprRuntimeError,
 * also past `budget` (none by default, as expr).
 */
export function execute(program: Program, env: Environment, budget?: EvaluationBudget): ExprValue {
  try {
    return evaluateNode(program.node, toEnvMap(env), budget);
  } catch (e) {
    throw asExprError(e, program.source, ExprRuntimeError);
  }
}

/** Runs a program and returns plain JS: numbers, strings, booleans, null, arrays and plain objects. */
export function run(program: Program, env: Environment): unknown {
  return toJs(execute(program, env));
}

/** Compiles and runs in one step; see compile and run. */
export function evaluate(source: string, env: Environment, options: EvaluateOptions = {}): unknown {
  const fullEnv = options.metadataFunctions ? metadataEnv(env) : env;
  return run(compile(source, fullEnv), fullEnv);
}

function asExprError(
  e: unknown,
  source: string,
  kind: typeof ExprCompileError | typeof ExprRuntimeError,
): unknown {
  if (e instanceof Fault) return new kind(e.reason, source, e.offset ?? 0);
  if (isStackOverflow(e)) return new kind('expression is too deeply nested', source, 0);
  const tooLarge = beyondJavaScript(e);
  return tooLarge === undefined ? e : new kind(tooLarge, source, 0);
}
