// Compile-time checks, following expr's checker: a strict top level (unknown names), member access on a
// nil-valued root, and type errors between operands whose types are known before evaluation.
import type { BinaryNode, BuiltinNode, MemberNode, Node } from './ast.js';
import { BUILTINS, CLOSURE_BUILTINS } from './builtins/index.js';
import { argumentError } from './builtins/signatures.js';
import { fail, Fault } from './errors.js';
import {
  ANY,
  ARRAY,
  arrayOf,
  assignableTo,
  goTypeOnly,
  BOOL,
  comparable,
  FLOAT,
  INT,
  isArray,
  isBool,
  isDuration,
  isInteger,
  isNumber,
  isString,
  isTime,
  isUnknown,
  MAP,
  maybeCompatible,
  natureName,
  natureOfGoType,
  NIL,
  STRING,
  TIME,
  DURATION,
  UNKNOWN,
} from './natures.js';
import type { Nature } from './natures.js';
import { EXPR_BUILTIN_NAMES } from './parser.js';
import { timeMethod, UTC } from './go-time.js';
import { GoInt, GoTime } from './values.js';
import type { GoFunction } from './values.js';
import { compileGoRegexp } from './regexp.js';

/** The signature of a time.Time / time.Duration method, for the checker. */
function methodSignature(kind: 'time' | 'duration', name: string): GoFunction | undefined {
  const receiver = kind === 'time' ? new GoTime(0n, UTC) : new GoInt('time.Duration', 0n);
  return timeMethod(receiver, name);
}

interface PredicateScope {
  readonly collection: Nature;
  /** `#index` exists only in map() and reduce(), `#acc` only in reduce(). */
  readonly hasIndex: boolean;
  readonly hasAccumulator: boolean;
}

const STRING_MAP = 'map[string]interface {}';
const BOOLEAN_PREDICATES = new Set(
  'all none any one filter count find findIndex findLast findLastIndex'.split(' '),
);

/** Checks a parsed expression against the natures of the environment; throws a Fault on the first error. */
export function check(node: Node, env: ReadonlyMap<string, Nature>): Nature {
  return new Checker(env).visit(node);
}

class Checker {
  private readonly variables: { name: string; nature: Nature }[] = [];
  private readonly scopes: PredicateScope[] = [];

  constructor(private readonly env: ReadonlyMap<string, Nature>) {}

  visit(node: Node): Nature {
    try {
      return this.visitNode(node);
    } catch (e) {
      if (e instanceof Fault && e.offset === undefined) e.offset = node.offset;
      throw e;
    }
  }

  private visitNode(node: Node): Nature {
    switch (node.kind) {
      case 'nil':
        return NIL;
      case 'bool':
        return BOOL;
      case 'int':
        return INT;
      case 'float':
        return FLOAT;
      case 'string':
        return STRING;
      case 'identifier':
        return this.identifier(node.name);
      case 'pointer':
        return this.pointer(node.name);
      case 'unary':
        return this.unary(node.operator, this.visit(node.operand));
      case 'binary':
        return this.binary(node);
      case 'member':
        return this.member(node);
      case 'chain':
      case 'predicate':
        return this.visit(node.kind === 'chain' ? node.node : node.body);
      case 'slice':
        return this.slice(this.visit(node.object), node.from, node.to);
      case 'call':
        return this.call(node.callee, node.args);
      case 'builtin':
        return this.builtin(node);
      case 'let':
        return this.let(node.name, node.value, node.body);
      case 'sequence':
        return node.nodes.map((n) => this.visit(n)).at(-1)!;
      case 'conditional':
        return this.conditional(node.condition, node.whenTrue, node.whenFalse);
      case 'array':
        return this.array(node.items.map((n) => this.visit(n)));
      case 'map':
        for (const entry of node.entries) {
          this.visit(entry.key);
          this.visit(entry.value);
        }
        return MAP;
    }
  }

  private identifier(name: string): Nature {
    const variable = this.variables.findLast((v) => v.name === name);
    if (variable) return variable.nature;
    if (name === '$env') return UNKNOWN;
    const nature = this.env.get(name);
    if (nature) return nature;
    // expr v1.17.8 types a builtin named as a value as its function and runs it as nil
    if (EXPR_BUILTIN_NAMES.has(name)) return UNKNOWN;
    return fail(`unknown name ${name}`);
  }

  private pointer(name: string): Nature {
    const scope = this.scopes.at(-1);
    if (!scope) return fail('cannot use pointer accessor outside predicate');
    if (name === '') {
      const { collection } = scope;
      if (collection.kind === 'array') return collection.elem;
      return isUnknown(collection) ? UNKNOWN : fail(`cannot use ${natureName(collection)} as array`);
    }
    if (name === 'index' && scope.hasIndex) return INT;
    if (name === 'acc' && scope.hasAccumulator) return UNKNOWN;
    return fail(`unknown pointer #${name}`);
  }

  private unary(operator: string, operand: Nature): Nature {
    if (operator === '!' || operator === 'not') {
      if (isBool(operand) || isUnknown(operand)) return BOOL;
    } else if (isNumber(operand)) {
      return operand;
    } else if (isUnknown(operand)) {
      return UNKNOWN;
    }
    return fail(`invalid operation: ${operator} (mismatched type ${natureName(operand)})`);
  }

  private binary(node: BinaryNode): Nature {
    const { operator, left: leftNode, right: rightNode } = node;
    const l = this.visit(leftNode);
    const r = this.visit(rightNode);
    const promote = (): Nature => (isInteger(l) && isInteger(r) ? INT : FLOAT);
    const both = (test: (n: Nature) => boolean): boolean => test(l) && test(r);
    switch (operator) {
      case '==':
      case '!=':
        if (l === INT && r === INT) node.typedEquality = 'int';
        else if (isString(l) && isString(r)) node.typedEquality = 'string';
        if (comparable(l, r)) return BOOL;
        break;
      case 'or':
      case '||':
      case 'and':
      case '&&':
        if (both(isBool) || maybeCompatible(l, r, isBool)) return BOOL;
        break;
      case '<':
      case '>':
      case '<=':
      case '>=':
        if (both(isNumber) || both(isString) || both(isTime) || both(isDuration)) return BOOL;
        if (maybeCompatible(l, r, isNumber, isString, isTime, isDuration)) return BOOL;
        break;
      case '+':
        if (both(isNumber)) return promote();
        if (both(isString)) return STRING;
        if ((isTime(l) && isDuration(r)) || (isDuration(l) && isTime(r))) return TIME;
        if (both(isDuration)) return DURATION;
        if (maybeCompatible(l, r, isNumber, isString, isTime, isDuration)) return UNKNOWN;
        break;
      case '-':
        if (both(isNumber)) return promote();
        if (both(isTime)) return DURATION;
        if (isTime(l) && isDuration(r)) return TIME;
        if (both(isDuration)) return DURATION;
        if (maybeCompatible(l, r, isNumber, isTime, isDuration)) return UNKNOWN;
        break;
      case '*':
        if (both(isNumber)) return promote();
        if ((isNumber(l) || isDuration(l)) && (isNumber(r) || isDuration(r))) return DURATION;
        if (maybeCompatible(l, r, isNumber, isDuration)) return UNKNOWN;
        break;
      case '/':
      case '**':
      case '^':
        if (both(isNumber) || maybeCompatible(l, r, isNumber)) return FLOAT;
        break;
      case '%':
        if (both(isInteger) || maybeCompatible(l, r, isInteger)) return INT;
        break;
      case 'in':
        return this.membership(l, r);
      case 'matches':
        if (rightNode.kind === 'string') compileGoRegexp(rightNode.value);
        if (both(isString) || maybeCompatible(l, r, isString)) return BOOL;
        break;
      case 'contains':
      case 'startsWith':
      case 'endsWith':
        if (both(isString) || maybeCompatible(l, r, isString)) return BOOL;
        break;
      case '..':
        // The checker calls it []interface {} (of ints); the value is a []int.
        if (both(isInteger) || maybeCompatible(l, r, isInteger)) return arrayOf(INT);
        break;
      case '??':
        if (l.kind === 'nil') return r;
        if (r.kind === 'nil' || assignableTo(r, l)) return l;
        return UNKNOWN;
      default:
        return fail(`unknown operator (${operator})`);
    }
    return fail(`invalid operation: ${operator} (mismatched types ${natureName(l)} and ${natureName(r)})`);
  }

  private membership(l: Nature, r: Nature): Nature {
    if (r.kind === 'map') {
      // the key type: string for map[string]..., interface {} for the maps groupBy and fromPairs make
      const key = r.goType.startsWith('map[string]') ? STRING : ANY;
      if (!isUnknown(l) && !assignableTo(l, key)) {
        fail(`cannot use ${natureName(l)} as type ${natureName(key)} in map key`);
      }
      return BOOL;
    }
    if (r.kind === 'array') {
      if (!comparable(l, r.elem)) fail(`cannot use ${natureName(l)} as type ${natureName(r.elem)} in array`);
      return BOOL;
    }
    if (isUnknown(r) || (isUnknown(l) && isString(r))) return BOOL;
    // a struct (time.Time) on the right: a field name on the left
    if ((isString(l) || isUnknown(l)) && isTime(r)) return BOOL;
    return fail(`invalid operation: in (mismatched types ${natureName(l)} and ${natureName(r)})`);
  }

  private member(node: MemberNode): Nature {
    const { object, property } = node;
    if (object.kind === 'identifier' && object.name === '$env' && property.kind === 'string') {
      const nature = this.env.get(property.value);
      if (nature) return nature;
      return node.optional ? UNKNOWN : fail(`unknown name ${property.value}`);
    }
    const base = this.visit(object);
    const prop = this.visit(property);
    if (isUnknown(base)) return UNKNOWN;
    const name = property.kind === 'string' ? property.value : undefined;
    if (name !== undefined && base.kind === 'nil') return fail(`type nil has no field ${name}`);
    if (base.kind === 'location') return UNKNOWN; // its methods are checked at run time
    if (base.kind === 'time' || base.kind === 'duration') {
      const method = name === undefined ? undefined : methodSignature(base.kind, name);
      return method ? { kind: 'func', fn: method } : UNKNOWN;
    }
    if (base.kind === 'map') {
      if (base.goType === STRING_MAP && !isString(prop) && !isUnknown(prop)) {
        fail(`cannot use ${natureName(prop)} to get an element from ${base.goType}`, property.offset);
      }
      return base.elem;
    }
    if (base.kind === 'array') {
      if (!isInteger(prop) && !isUnknown(prop)) {
        fail(
          `array elements can only be selected using an integer (got ${natureName(prop)})`,
          property.offset,
        );
      }
      return base.elem;
    }
    if (name !== undefined) return fail(`type ${natureName(base)} has no field ${name}`);
    return fail(`type ${natureName(base)}[${natureName(prop)}] is undefined`);
  }

  private slice(base: Nature, from?: Node, to?: Node): Nature {
    if (isUnknown(base)) return UNKNOWN;
    if (base.kind !== 'string' && base.kind !== 'array') fail(`cannot slice ${natureName(base)}`);
    for (const bound of [from, to]) {
      if (!bound) continue;
      const n = this.visit(bound);
      if (!isInteger(n) && !isUnknown(n)) fail(`non-integer slice index ${natureName(n)}`, bound.offset);
    }
    return base;
  }

  private call(callee: Node, args: readonly Node[]): Nature {
    if (callee.kind === 'identifier' && callee.name === '$env') fail(`${STRING_MAP} is not callable`);
    const fn = this.visit(callee);
    // Like expr: a callee of unknown type (sprig.x, a map value) leaves its arguments unchecked.
    if (isUnknown(fn)) return UNKNOWN;
    const argNatures = args.map((a) => this.visit(a));
    const name =
      callee.kind === 'identifier'
        ? callee.name
        : callee.kind === 'member' && callee.property.kind === 'string'
          ? callee.property.value
          : 'function';
    if (fn.kind === 'nil') return fail(`${name} is nil; cannot call nil as function`);
    if (fn.kind !== 'func') return fail(`${natureName(fn)} is not callable`);
    const { params, variadic, result } = fn.fn;
    const declared = variadic ? [...params, ...argNatures.slice(params.length).map(() => variadic)] : params;
    if (variadic && argNatures.length < params.length) fail(`not enough arguments to call ${name}`);
    const error = argumentError(name, declared, argNatures);
    if (error) fail(error);
    return natureOfGoType(result);
  }

  private builtin(node: BuiltinNode): Nature {
    const { name, args } = node;
    if (CLOSURE_BUILTINS.has(name)) return this.closureBuiltin(name, args);
    const builtin = BUILTINS.get(name);
    if (!builtin) return fail(`unsupported function ${name}`);
    const result = builtin.check(args.map((a) => this.visit(a)));
    // get() reads the element nature like an index; the others declare Go types, which carry no more
    return name === 'get' ? result : goTypeOnly(result);
  }

  private closureBuiltin(name: string, args: readonly Node[]): Nature {
    const collection = this.visit(args[0]!);
    if (!isArray(collection) && !isUnknown(collection)) {
      fail(`builtin ${name} takes only array (got ${natureName(collection)})`, args[0]!.offset);
    }
    const elem = collection.kind === 'array' ? collection.elem : UNKNOWN;
    let out: Nature | undefined;
    if (args[1]) {
      this.scopes.push({
        collection,
        hasIndex: name === 'map' || name === 'reduce',
        hasAccumulator: name === 'reduce',
      });
      out = this.visit(args[1]);
      this.scopes.pop();
      if (name === 'reduce' && args[2]) this.visit(args[2]);
      if (name === 'sortBy' && args[2]) {
        const order = this.visit(args[2]);
        if (!isString(order) && !isUnknown(order)) {
          fail(`sortBy order argument must be a string (got ${natureName(order)})`, args[2].offset);
        }
      }
      // a predicate whose body is nil has no result: expr's predicate type has no output
      if (out.kind === 'nil') {
        const inputs = name === 'reduce' ? 'two' : 'one';
        fail(`predicate should has ${inputs} input and one output param`, args[1].offset);
      }
      if (BOOLEAN_PREDICATES.has(name) && !isBool(out) && !isUnknown(out)) {
        fail(`predicate should return boolean (got ${natureName(out)})`, args[1].offset);
      }
    } else if (args[2]) this.visit(args[2]);
    switch (name) {
      case 'filter':
        return isUnknown(collection) ? ARRAY : arrayOf(elem);
      case 'map':
        return arrayOf(out ?? UNKNOWN);
      case 'count':
      case 'findIndex':
      case 'findLastIndex':
        return INT;
      case 'find':
      case 'findLast':
        return isUnknown(collection) ? UNKNOWN : elem;
      case 'sum':
        // with a predicate: the Go type of its result; without: the element
        return out ? goTypeOnly(out) : isUnknown(collection) ? UNKNOWN : elem;
      case 'groupBy':
        return { kind: 'map', elem: ARRAY, goType: 'map[interface {}][]interface {}' };
      case 'sortBy':
        return collection;
      case 'reduce':
        return out ?? UNKNOWN; // the predicate's own nature
      default:
        return BOOL;
    }
  }

  private let(name: string, valueNode: Node, body: Node): Nature {
    if (this.env.has(name)) fail(`cannot redeclare ${name}`);
    if (EXPR_BUILTIN_NAMES.has(name)) fail(`cannot redeclare builtin ${name}`);
    if (this.variables.some((v) => v.name === name)) fail(`cannot redeclare variable ${name}`);
    const nature = this.visit(valueNode);
    this.variables.push({ name, nature });
    try {
      return this.visit(body);
    } finally {
      this.variables.pop();
    }
  }

  private conditional(condition: Node, whenTrue: Node, whenFalse: Node): Nature {
    const c = this.visit(condition);
    if (!isBool(c) && !isUnknown(c)) {
      fail(`non-bool expression (type ${natureName(c)}) used as condition`, condition.offset);
    }
    const a = this.visit(whenTrue);
    const b = this.visit(whenFalse);
    if (a.kind === 'nil') return b;
    if (b.kind === 'nil') return a;
    if (!assignableTo(a, b)) return UNKNOWN;
    if (a.kind === 'array' && b.kind === 'array') {
      // lists of the same Go type whose element natures differ are plain []interface {}
      if (!assignableTo(a.elem, b.elem) || !assignableTo(b.elem, a.elem)) return ARRAY;
    }
    return a;
  }

  private array(items: readonly Nature[]): Nature {
    const first = items[0];
    if (first && items.every((n) => n.kind === first.kind)) return arrayOf(first);
    return ARRAY;
  }
}
