// The passes of expr's optimizer that run after constant folding and replace a builtin call by a cheaper
// one. They matter to results because the replaced call no longer allocates a list against the memory
// budget: `sum(1..1000000)` is a constant, `len(filter(x, p))` counts without building the list.
import type { BuiltinNode, Node } from './ast.js';
import { mapChildren } from './optimizer.js';

const int64 = (n: bigint): bigint => BigInt.asIntN(64, n);

export function rewrite(node: Node): Node {
  const n = mapChildren(node, rewrite);
  if (n.kind !== 'builtin') return n;
  return sumRange(n) ?? reduceRange(n) ?? sumArray(n) ?? sumMap(n) ?? filterLen(n) ?? n;
}

/** The constant bounds of `m..n` with n ≥ m, and the arithmetic series' count and sum. */
function constantRange(node: Node | undefined): { count: bigint; sum: bigint } | undefined {
  if (node?.kind !== 'binary' || node.operator !== '..') return undefined;
  const { left, right } = node;
  if (left.kind !== 'int' || right.kind !== 'int' || right.value < left.value) return undefined;
  const count = int64(right.value - left.value + 1n);
  return { count, sum: int64(int64(count * int64(left.value + right.value)) / 2n) };
}

const integer = (value: bigint, offset: number): Node => ({ kind: 'int', value: int64(value), offset });
const isPointer = (n: Node, name: string): boolean => n.kind === 'pointer' && n.name === name;

/** sum(m..n) and sum(m..n, #), `# * k`, `# + k`, `# - k`, `k - #` with constant integers. */
function sumRange(node: BuiltinNode): Node | undefined {
  if (node.name !== 'sum' || node.args.length > 2) return undefined;
  const range = constantRange(node.args[0]);
  if (!range) return undefined;
  const { count, sum } = range;
  const predicate = node.args[1];
  if (!predicate) return integer(sum, node.offset);
  if (predicate.kind !== 'predicate') return undefined;
  const body = predicate.body;
  if (isPointer(body, '')) return integer(sum, node.offset);
  if (body.kind !== 'binary') return undefined;
  const pointerLeft = isPointer(body.left, '') && body.right.kind === 'int';
  const pointerRight = body.left.kind === 'int' && isPointer(body.right, '');
  if (!pointerLeft && !pointerRight) return undefined;
  const k = (pointerLeft ? body.right : body.left) as Extract<Node, { kind: 'int' }>;
  switch (body.operator) {
    case '*':
      return integer(k.value * sum, node.offset);
    case '+':
      return integer(sum + count * k.value, node.offset);
    case '-':
      return integer(pointerLeft ? sum - count * k.value : count * k.value - sum, node.offset);
    default:
      return undefined;
  }
}

/** reduce(m..n, # + #acc) (or `#acc + #`), with an optional constant integer initial value. */
function reduceRange(node: BuiltinNode): Node | undefined {
  if (node.name !== 'reduce' || node.args.length < 2) return undefined;
  const range = constantRange(node.args[0]);
  const predicate = node.args[1]!;
  if (!range || predicate.kind !== 'predicate') return undefined;
  const body = predicate.body;
  if (body.kind !== 'binary' || body.operator !== '+') return undefined;
  const plusAcc =
    (isPointer(body.left, '') && isPointer(body.right, 'acc')) ||
    (isPointer(body.left, 'acc') && isPointer(body.right, ''));
  if (!plusAcc) return undefined;
  const initial = node.args[2];
  if (!initial) return integer(range.sum, node.offset);
  return initial.kind === 'int' ? integer(initial.value + range.sum, node.offset) : undefined;
}

/** sum([a, b, c]) is a + (b + c). */
function sumArray(node: BuiltinNode): Node | undefined {
  const list = node.args[0];
  if (node.name !== 'sum' || node.args.length !== 1 || list?.kind !== 'array' || list.items.length < 2)
    return undefined;
  const chain = (items: readonly Node[]): Node =>
    items.length === 2
      ? { kind: 'binary', operator: '+', left: items[0]!, right: items[1]!, offset: node.offset }
      : { kind: 'binary', operator: '+', left: items[0]!, right: chain(items.slice(1)), offset: node.offset };
  return chain(list.items);
}

/** sum(map(x, f)) is sum(x, f). */
function sumMap(node: BuiltinNode): Node | undefined {
  const inner = node.args[0];
  if (node.name !== 'sum' || node.args.length !== 1) return undefined;
  if (inner?.kind !== 'builtin' || inner.name !== 'map' || inner.args.length !== 2) return undefined;
  return { ...node, args: inner.args };
}

/** len(filter(x, p)) is count(x, p). */
function filterLen(node: BuiltinNode): Node | undefined {
  const inner = node.args[0];
  if (node.name !== 'len' || node.args.length !== 1) return undefined;
  if (inner?.kind !== 'builtin' || inner.name !== 'filter' || inner.args.length !== 2) return undefined;
  return { ...node, name: 'count', args: inner.args };
}
