// The part of expr's optimizer that changes results: constant folding (fold.go). It runs after the checker,
// bottom-up: integer/float/string arithmetic on literals (`1 % 0` is the compile error "integer divide by
// zero"), `**` with Go's math.Pow, `==` on literals, `!` on a bool literal, and the boolean shortcuts that drop an
// operand unevaluated: `x && false` is false, `x || true` is true, `true && x` and `x && true` are x itself.
import type { Node } from './ast.js';
import { fail, Fault } from './errors.js';
import { goPow } from './go-math.js';
import { compileGoRegexp } from './regexp.js';
import { toInt64 } from './values.js';

type Literal = Extract<Node, { kind: 'int' | 'float' | 'string' | 'bool' }>;

export function mapChildren(node: Node, visit: (n: Node) => Node): Node {
  switch (node.kind) {
    case 'unary':
      return { ...node, operand: visit(node.operand) };
    case 'binary':
      return { ...node, left: visit(node.left), right: visit(node.right) };
    case 'member':
      return { ...node, object: visit(node.object), property: visit(node.property) };
    case 'chain':
      return { ...node, node: visit(node.node) };
    case 'slice':
      return {
        ...node,
        object: visit(node.object),
        ...(node.from && { from: visit(node.from) }),
        ...(node.to && { to: visit(node.to) }),
      };
    case 'call':
      return { ...node, callee: visit(node.callee), args: node.args.map(visit) };
    case 'builtin':
      return { ...node, args: node.args.map(visit) };
    case 'predicate':
      return { ...node, body: visit(node.body) };
    case 'let':
      return { ...node, value: visit(node.value), body: visit(node.body) };
    case 'sequence':
      return { ...node, nodes: node.nodes.map(visit) };
    case 'conditional':
      return {
        ...node,
        condition: visit(node.condition),
        whenTrue: visit(node.whenTrue),
        whenFalse: visit(node.whenFalse),
      };
    case 'array':
      return { ...node, items: node.items.map(visit) };
    case 'map':
      return { ...node, entries: node.entries.map((e) => ({ key: visit(e.key), value: visit(e.value) })) };
    default:
      return node;
  }
}

export function fold(node: Node): Node {
  return foldNode(mapChildren(node, fold));
}

/**
 * expr's compiler compiles a constant `matches` pattern once (regexp.MustCompile): a pattern that only became
 * constant by folding (`"(" + ""`) and does not parse fails the compilation.
 */
export function compileConstantPatterns(node: Node): void {
  mapChildren(node, (child) => {
    compileConstantPatterns(child);
    return child;
  });
  if (node.kind === 'binary' && node.operator === 'matches' && node.right.kind === 'string') {
    try {
      compileGoRegexp(node.right.value);
    } catch (e) {
      if (e instanceof Fault) e.offset ??= node.offset;
      throw e;
    }
  }
}

function literal(kind: Literal['kind'], value: unknown, offset: number): Node {
  return { kind, value, offset } as Node;
}

function foldNode(node: Node): Node {
  if (node.kind === 'unary') {
    const { operand: x, operator } = node;
    if (operator === '-' && x.kind === 'int') return literal('int', toInt64(-x.value), node.offset);
    if (operator === '-' && x.kind === 'float') return literal('float', -x.value, node.offset);
    if (operator === '+' && (x.kind === 'int' || x.kind === 'float')) return { ...x, offset: node.offset };
    if ((operator === '!' || operator === 'not') && x.kind === 'bool')
      return literal('bool', !x.value, node.offset);
    return node;
  }
  if (node.kind !== 'binary') return node;
  const { left: a, right: b, operator, offset } = node;
  const number = (n: Node): number | undefined =>
    n.kind === 'int' ? Number(n.value) : n.kind === 'float' ? n.value : undefined;
  const ints = a.kind === 'int' && b.kind === 'int';
  const x = number(a);
  const y = number(b);
  switch (operator) {
    case '+':
    case '-':
    case '*':
      if (ints) {
        const [i, j] = [a.value, b.value];
        return literal('int', toInt64(operator === '+' ? i + j : operator === '-' ? i - j : i * j), offset);
      }
      if (x !== undefined && y !== undefined)
        return literal('float', operator === '+' ? x + y : operator === '-' ? x - y : x * y, offset);
      if (operator === '+' && a.kind === 'string' && b.kind === 'string')
        return literal('string', a.value + b.value, offset);
      return node;
    case '/':
      return x !== undefined && y !== undefined ? literal('float', x / y, offset) : node;
    case '%':
      if (!ints) return node;
      if (b.value === 0n) fail('integer divide by zero', offset);
      return literal('int', toInt64(a.value % b.value), offset);
    case '**':
    case '^':
      return x !== undefined && y !== undefined ? literal('float', goPow(x, y), offset) : node;
    case 'and':
    case '&&':
      if (a.kind === 'bool' && a.value) return b;
      if (b.kind === 'bool' && b.value) return a;
      if ((a.kind === 'bool' && !a.value) || (b.kind === 'bool' && !b.value))
        return literal('bool', false, offset);
      return node;
    case 'or':
    case '||':
      if (a.kind === 'bool' && !a.value) return b;
      if (b.kind === 'bool' && !b.value) return a;
      if ((a.kind === 'bool' && a.value) || (b.kind === 'bool' && b.value))
        return literal('bool', true, offset);
      return node;
    case '==':
      if (ints || (a.kind === 'string' && b.kind === 'string') || (a.kind === 'bool' && b.kind === 'bool'))
        return literal('bool', a.value === b.value, offset);
      return node;
    default:
      return node;
  }
}
