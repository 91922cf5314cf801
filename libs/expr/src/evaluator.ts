// Tree-walking evaluation with expr's runtime semantics.
import type { BinaryNode, BuiltinNode, Node } from './ast.js';
import { BUILTINS, CLOSURE_BUILTINS, runClosureBuiltin } from './builtins/index.js';
import { checkElement } from './builtins/closures.js';
import type { Closure } from './builtins/index.js';
import { resetBudget, spendSteps, type EvaluationBudget } from './budget.js';
import { beyondJavaScript, fail, Fault } from './errors.js';
import { goRegexpMatch } from './regexp.js';
import {
  arithmetic,
  asBool,
  asString,
  compare,
  contains,
  equal,
  fetch,
  growMemory,
  negate,
  range,
  resetMemory,
  slice,
} from './runtime.js';
import { GoFunction, goTypeName, isGoNil } from './values.js';
import type { ExprMap, ExprValue } from './values.js';

/** Thrown by a `?.` step whose base is nil; the enclosing chain turns it into nil. */
const NIL_CHAIN = Symbol('nil chain');

interface Frame {
  readonly item: ExprValue;
  readonly index: number;
  readonly accumulator?: ExprValue;
}

export function evaluateNode(node: Node, env: ExprMap, budget?: EvaluationBudget): ExprValue {
  resetMemory();
  resetBudget(budget);
  return new Evaluator(env).visit(node);
}

class Evaluator {
  private readonly variables: { name: string; value: ExprValue }[] = [];
  private readonly frames: Frame[] = [];

  constructor(private readonly env: ExprMap) {}

  visit(node: Node): ExprValue {
    try {
      spendSteps();
      return this.visitNode(node);
    } catch (e) {
      if (e instanceof Fault && e.offset === undefined) e.offset = node.offset;
      const tooLarge = beyondJavaScript(e);
      if (tooLarge !== undefined) throw new Fault(tooLarge, node.offset);
      throw e;
    }
  }

  private visitNode(node: Node): ExprValue {
    switch (node.kind) {
      case 'nil':
        return null;
      case 'bool':
      case 'int':
      case 'float':
      case 'string':
        return node.value;
      case 'identifier':
        return this.identifier(node.name);
      case 'pointer':
        return this.pointer(node.name);
      case 'unary':
        return this.unary(node.operator, this.visit(node.operand));
      case 'binary':
        return this.binary(node);
      case 'member': {
        const object = this.visit(node.object);
        if (node.optional && isGoNil(object)) throw NIL_CHAIN;
        return fetch(object, this.visit(node.property));
      }
      case 'chain':
        try {
          return this.visit(node.node);
        } catch (e) {
          if (e === NIL_CHAIN) return null;
          throw e;
        }
      case 'slice':
        return slice(
          this.visit(node.object),
          node.from && this.visit(node.from),
          node.to && this.visit(node.to),
        );
      case 'call':
        return this.call(node.callee, node.args);
      case 'builtin':
        return this.builtin(node);
      case 'predicate':
        return this.visit(node.body);
      case 'let':
        this.variables.push({ name: node.name, value: this.visit(node.value) });
        try {
          return this.visit(node.body);
        } finally {
          this.variables.pop();
        }
      case 'sequence':
        return node.nodes.map((n) => this.visit(n)).at(-1)!;
      case 'conditional':
        return asBool(this.visit(node.condition)) ? this.visit(node.whenTrue) : this.visit(node.whenFalse);
      case 'array': {
        const items = node.items.map((n) => this.visit(n));
        growMemory(items.length);
        return items;
      }
      case 'map': {
        const entries = node.entries.map((e) => [this.visit(e.key), this.visit(e.value)] as const);
        growMemory(entries.length);
        for (const [key] of [...entries].reverse()) asString(key); // OpMap asserts keys last to first
        // expr's OpMap stores the entries last to first: with a duplicate key the first one wins.
        return new Map(entries.map(([k, v]) => [k as string, v] as const).reverse()) as ExprMap;
      }
    }
  }

  private identifier(name: string): ExprValue {
    const variable = this.variables.findLast((v) => v.name === name);
    if (variable) return variable.value;
    if (name === '$env') return this.env;
    return this.env.get(name) ?? null;
  }

  private pointer(name: string): ExprValue {
    const frame = this.frames.at(-1);
    if (!frame) return fail('cannot use pointer accessor outside predicate');
    if (name === '') return checkElement(frame.item);
    if (name === 'index') return BigInt(frame.index);
    if (name === 'acc' && frame.accumulator !== undefined) return frame.accumulator;
    return fail(`unknown pointer #${name}`);
  }

  private unary(operator: string, value: ExprValue): ExprValue {
    switch (operator) {
      case '!':
      case 'not':
        return !asBool(value);
      case '-':
        return negate(value);
      default:
        // expr compiles unary + to nothing: any value passes through
        return value;
    }
  }

  private binary(node: BinaryNode): ExprValue {
    const { operator, left: leftNode, right: rightNode } = node;
    const left = this.visit(leftNode);
    switch (operator) {
      case '&&':
      case 'and':
        return asBool(left) ? this.visit(rightNode) : false;
      case '||':
      case 'or':
        return asBool(left) ? true : this.visit(rightNode);
      case '??':
        return !isGoNil(left) ? left : this.visit(rightNode);
    }
    const right = this.visit(rightNode);
    if (node.typedEquality) {
      assertGoType(left, node.typedEquality);
      assertGoType(right, node.typedEquality);
    }
    switch (operator) {
      case '==':
        return equal(left, right);
      case '!=':
        return !equal(left, right);
      case '<':
        return compare(left, right, operator) < 0;
      case '>':
        return compare(left, right, operator) > 0;
      case '<=':
        return compare(left, right, operator) <= 0;
      case '>=':
        return compare(left, right, operator) >= 0;
      case 'in':
        return contains(left, constantStringSet(rightNode) ?? right);
      case '..':
        return range(left, right);
      case 'contains':
      case 'startsWith':
      case 'endsWith':
      case 'matches':
        return left !== null && right !== null && stringOperator(operator, asString(left), asString(right));
      default:
        return arithmetic(operator, left, right);
    }
  }

  private call(calleeNode: Node, argNodes: readonly Node[]): ExprValue {
    const callee = this.visit(calleeNode);
    const args = argNodes.map((a) => this.visit(a));
    if (callee instanceof GoFunction) return callee.call(args);
    if (callee === null) return fail('reflect: call of reflect.Value.Call on zero Value');
    return fail(`reflect: call of reflect.Value.Call on ${goTypeName(callee)} Value`);
  }

  private builtin(node: BuiltinNode): ExprValue {
    const { name, args } = node;
    if (CLOSURE_BUILTINS.has(name)) {
      const collection = this.visit(args[0]!);
      const body = args[1];
      const closure: Closure | undefined =
        body && ((item, index, accumulator) => this.inFrame({ item, index, accumulator }, body));
      const extra = args[2];
      return runClosureBuiltin(name, collection, closure, extra && (() => this.visit(extra)));
    }
    const builtin = BUILTINS.get(name);
    if (!builtin) return fail(`unsupported function ${name}`);
    return builtin.call(args.map((a) => this.visit(a)));
  }

  private inFrame(frame: Frame, body: Node): ExprValue {
    this.frames.push(frame);
    try {
      return this.visit(body);
    } finally {
      this.frames.pop();
    }
  }
}

/**
 * expr's optimizer turns `x in ["a", "b"]` (a literal list of string literals) into a lookup in a
 * map[string]struct{}: a needle that is not a string is then a MapIndex error, nil looks up "".
 */
function constantStringSet(node: Node): ExprMap | undefined {
  if (node.kind !== 'array' || node.items.length === 0) return undefined;
  if (!node.items.every((item) => item.kind === 'string')) return undefined;
  return new Map(node.items.map((item) => [(item as { value: string }).value, true]));
}

function stringOperator(operator: string, left: string, right: string): boolean {
  switch (operator) {
    case 'contains':
      return left.includes(right);
    case 'startsWith':
      return left.startsWith(right);
    case 'endsWith':
      return left.endsWith(right);
    default:
      return goRegexpMatch(right, left);
  }
}

/** The type assertion of OpEqualInt/OpEqualString: `a.(int)` panics on any other Go type, nil included. */
function assertGoType(value: ExprValue, type: 'int' | 'string'): void {
  const ok = type === 'int' ? typeof value === 'bigint' : typeof value === 'string';
  if (!ok)
    fail(`interface conversion: interface {} is ${value === null ? 'nil' : goTypeName(value)}, not ${type}`);
}
