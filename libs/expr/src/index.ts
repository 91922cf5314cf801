// expr-lang/expr (v1.17.8) semantics for Argo Workflows' WorkflowEventBinding expressions.
import { fromJs, goTypeName } from './values.js';

export { compile, evaluate, execute, run } from './api.js';
export type { EvaluateOptions, Program } from './api.js';
export type { EvaluationBudget } from './budget.js';
export { eventEnv, metadataEnv, metadataFunctions } from './environment.js';
export type { Environment } from './environment.js';
export { ExprCompileError, ExprError, ExprRuntimeError } from './errors.js';
export { formatFloat, goFormat } from './go-format.js';
export { sprintS } from './go-sprintf.js';
export { toParameterValue } from './parameter-value.js';
export { GoFunction, GoInt, GoLocation, GoTime, nilSlice, tagged } from './values.js';
export type { ExprMap, ExprValue, GoType, MapKey } from './values.js';

/** The Go `%T` of a result (`string`, `float64`, `int`, `bool`, `map[string]interface {}`, `[]interface {}`, `<nil>`). */
export function goTypeOf(value: unknown): string {
  return goTypeName(fromJs(value));
}
