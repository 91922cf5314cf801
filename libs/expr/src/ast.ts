// The syntax tree; `offset` is the code-point offset used for error locations (expr's node location).

interface Located {
  readonly offset: number;
}

export type Node =
  | NilNode
  | BoolNode
  | IntNode
  | FloatNode
  | StringNode
  | IdentifierNode
  | PointerNode
  | UnaryNode
  | BinaryNode
  | MemberNode
  | ChainNode
  | SliceNode
  | CallNode
  | BuiltinNode
  | PredicateNode
  | LetNode
  | SequenceNode
  | ConditionalNode
  | ArrayNode
  | MapNode;

export interface NilNode extends Located {
  readonly kind: 'nil';
}
export interface BoolNode extends Located {
  readonly kind: 'bool';
  readonly value: boolean;
}
export interface IntNode extends Located {
  readonly kind: 'int';
  readonly value: bigint;
}
export interface FloatNode extends Located {
  readonly kind: 'float';
  readonly value: number;
}
export interface StringNode extends Located {
  readonly kind: 'string';
  readonly value: string;
}
export interface IdentifierNode extends Located {
  readonly kind: 'identifier';
  readonly name: string;
}
/** `#` (name ''), `#index`, `#acc`, and the implicit `#` of `.Field`. */
export interface PointerNode extends Located {
  readonly kind: 'pointer';
  readonly name: string;
}
export interface UnaryNode extends Located {
  readonly kind: 'unary';
  readonly operator: string;
  readonly operand: Node;
}
export interface BinaryNode extends Located {
  readonly kind: 'binary';
  readonly operator: string;
  readonly left: Node;
  readonly right: Node;
  /**
   * Set by the checker on `==`/`!=` when both operands are typed `int` or both `string`: expr's compiler then
   * emits OpEqualInt/OpEqualString, which assert the operands' Go types at run time.
   */
  typedEquality?: 'int' | 'string';
}
export interface MemberNode extends Located {
  readonly kind: 'member';
  readonly object: Node;
  readonly property: Node;
  readonly optional: boolean;
}
/** Wraps a member chain that contains `?.`: a nil base at an optional step makes the whole chain nil. */
export interface ChainNode extends Located {
  readonly kind: 'chain';
  readonly node: Node;
}
export interface SliceNode extends Located {
  readonly kind: 'slice';
  readonly object: Node;
  readonly from?: Node;
  readonly to?: Node;
}
export interface CallNode extends Located {
  readonly kind: 'call';
  readonly callee: Node;
  readonly args: readonly Node[];
}
export interface BuiltinNode extends Located {
  readonly kind: 'builtin';
  readonly name: string;
  readonly args: readonly Node[];
}
export interface PredicateNode extends Located {
  readonly kind: 'predicate';
  readonly body: Node;
}
export interface LetNode extends Located {
  readonly kind: 'let';
  readonly name: string;
  readonly value: Node;
  readonly body: Node;
}
export interface SequenceNode extends Located {
  readonly kind: 'sequence';
  readonly nodes: readonly Node[];
}
export interface ConditionalNode extends Located {
  readonly kind: 'conditional';
  readonly condition: Node;
  readonly whenTrue: Node;
  readonly whenFalse: Node;
}
export interface ArrayNode extends Located {
  readonly kind: 'array';
  readonly items: readonly Node[];
}
export interface MapNode extends Located {
  readonly kind: 'map';
  readonly entries: readonly { readonly key: Node; readonly value: Node }[];
}
