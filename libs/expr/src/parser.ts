import type { Node, StringNode } from './ast.js';
import { fail } from './errors.js';
import { describeToken, tokenize } from './lexer.js';
import type { Token, TokenKind } from './lexer.js';

const UNARY: Readonly<Record<string, number>> = { not: 50, '!': 50, '-': 90, '+': 90 };

const BINARY: Readonly<Record<string, { precedence: number; rightAssociative?: boolean }>> = {
  '|': { precedence: 0 },
  or: { precedence: 10 },
  '||': { precedence: 10 },
  and: { precedence: 15 },
  '&&': { precedence: 15 },
  '==': { precedence: 20 },
  '!=': { precedence: 20 },
  '<': { precedence: 20 },
  '>': { precedence: 20 },
  '>=': { precedence: 20 },
  '<=': { precedence: 20 },
  in: { precedence: 20 },
  matches: { precedence: 20 },
  contains: { precedence: 20 },
  startsWith: { precedence: 20 },
  endsWith: { precedence: 20 },
  '..': { precedence: 25 },
  '+': { precedence: 30 },
  '-': { precedence: 30 },
  '*': { precedence: 60 },
  '/': { precedence: 60 },
  '%': { precedence: 60 },
  '**': { precedence: 100, rightAssociative: true },
  '^': { precedence: 100, rightAssociative: true },
  '??': { precedence: 500 },
};

/** Only ordering comparisons chain: `1 < x < 5` means `1 < x && x < 5`. */
const CHAINED_COMPARISONS = new Set(['<', '>', '<=', '>=']);
const NEGATABLE = new Set(['in', 'matches', 'contains', 'startsWith', 'endsWith']);

interface ArgSpec {
  readonly predicate: boolean;
  readonly optional: boolean;
}
const expr: ArgSpec = { predicate: false, optional: false };
const pred: ArgSpec = { predicate: true, optional: false };
const optionalPred: ArgSpec = { predicate: true, optional: true };
const optionalExpr: ArgSpec = { predicate: false, optional: true };

/** Builtins whose second argument is a closure; the parser treats them specially, as expr does. */
const PREDICATE_BUILTINS: Readonly<Record<string, readonly ArgSpec[]>> = {
  all: [expr, pred],
  none: [expr, pred],
  any: [expr, pred],
  one: [expr, pred],
  filter: [expr, pred],
  map: [expr, pred],
  count: [expr, optionalPred],
  sum: [expr, optionalPred],
  find: [expr, pred],
  findIndex: [expr, pred],
  findLast: [expr, pred],
  findLastIndex: [expr, pred],
  groupBy: [expr, pred],
  sortBy: [expr, pred, optionalExpr],
  reduce: [expr, pred, optionalExpr],
};

/** Every builtin name of expr v1.17; calls to these parse as builtin calls even where this library lacks them. */
export const EXPR_BUILTIN_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(PREDICATE_BUILTINS),
  ...'len type abs ceil floor round int float string trim trimPrefix trimSuffix upper lower split splitAfter'.split(
    ' ',
  ),
  ...'replace repeat join indexOf lastIndexOf hasPrefix hasSuffix max min mean median toJSON fromJSON'.split(
    ' ',
  ),
  ...'toBase64 fromBase64 now duration date timezone first last get take keys values toPairs fromPairs'.split(
    ' ',
  ),
  ...'reverse uniq concat flatten sort bitand bitor bitxor bitnand bitnot bitshl bitshr bitushr'.split(' '),
]);

/** conf.DefaultMaxNodes: expr's parser fails once an expression has more nodes than this. */
const MAX_NODES = 10_000;

export function parse(source: string): Node {
  const parser = new Parser(tokenize(source));
  const node = parser.parseSequence();
  parser.expectEnd();
  return node;
}

class Parser {
  private pos = 0;
  private depth = 0;
  private nodes = 0;

  constructor(private readonly tokens: Token[]) {}

  private get current(): Token {
    return this.tokens[this.pos]!;
  }

  expectEnd(): void {
    if (this.current.kind !== 'EOF') this.unexpected();
  }

  parseSequence(): Node {
    const nodes = [this.parseExpression(0)];
    while (this.is('Operator', ';')) {
      this.next();
      if (this.current.kind === 'EOF') break;
      nodes.push(this.parseExpression(0));
    }
    if (nodes.length === 1) return nodes[0]!;
    this.countNode();
    return { kind: 'sequence', nodes, offset: nodes[0]!.offset };
  }

  private parseExpression(precedence: number): Node {
    if (precedence === 0 && this.is('Operator', 'let')) return this.parseLet();
    if (precedence === 0 && this.is('Operator', 'if')) return this.parseIf();
    let left = this.parsePrimary();
    let previous = '';
    let opToken = this.current;
    while (opToken.kind === 'Operator') {
      let notToken: Token | undefined;
      if (opToken.value === 'not') {
        const saved = this.pos;
        this.next();
        if (!NEGATABLE.has(this.current.value)) this.unexpected();
        if (BINARY[this.current.value]!.precedence < precedence) {
          this.pos = saved;
          break;
        }
        notToken = opToken;
        opToken = this.current;
      }
      const op = BINARY[opToken.value];
      if (op === undefined || op.precedence < precedence) break;
      this.next();
      if (opToken.value === '|') {
        const name = this.current;
        this.expect('Identifier');
        left = this.parseCall(name, [left]);
      } else {
        if (previous === '??' && opToken.value !== '??') {
          fail(
            `Operator (${opToken.value}) and coalesce expressions (??) cannot be mixed. Wrap either by parentheses.`,
            opToken.offset,
          );
        }
        if (CHAINED_COMPARISONS.has(opToken.value)) {
          left = this.parseComparison(left, opToken, op.precedence);
        } else {
          const right = this.parseExpression(op.rightAssociative ? op.precedence : op.precedence + 1);
          this.countNode();
          left = { kind: 'binary', operator: opToken.value, left, right, offset: opToken.offset };
          if (notToken) {
            this.countNode();
            left = { kind: 'unary', operator: 'not', operand: left, offset: notToken.offset };
          }
        }
      }
      previous = opToken.value;
      opToken = this.current;
    }
    return precedence === 0 ? this.parseConditional(left) : left;
  }

  private parseComparison(left: Node, token: Token, precedence: number): Node {
    let root: Node | undefined;
    for (;;) {
      const right = this.parseExpression(precedence + 1);
      this.countNode();
      const comparison: Node = { kind: 'binary', operator: token.value, left, right, offset: token.offset };
      if (root) this.countNode();
      root = root
        ? { kind: 'binary', operator: '&&', left: root, right: comparison, offset: token.offset }
        : comparison;
      left = right;
      token = this.current;
      if (token.kind !== 'Operator' || !CHAINED_COMPARISONS.has(token.value)) return root;
      this.next();
    }
  }

  private parseLet(): Node {
    this.next();
    const name = this.current;
    this.expect('Identifier');
    this.expect('Operator', '=');
    const value = this.parseExpression(0);
    this.expect('Operator', ';');
    const body = this.parseSequence();
    this.countNode();
    return { kind: 'let', name: name.value, value, body, offset: name.offset };
  }

  private parseIf(): Node {
    const offset = this.current.offset;
    this.next();
    const condition = this.parseExpression(0);
    const whenTrue = this.parseBlock();
    this.expect('Operator', 'else');
    const whenFalse = this.is('Operator', 'if') ? this.parseIf() : this.parseBlock();
    return { kind: 'conditional', condition, whenTrue, whenFalse, offset };
  }

  private parseBlock(): Node {
    this.expect('Bracket', '{');
    const node = this.parseSequence();
    this.expect('Bracket', '}');
    return node;
  }

  private parseConditional(condition: Node): Node {
    while (this.is('Operator', '?')) {
      const offset = this.current.offset;
      this.next();
      let whenTrue = condition;
      if (this.is('Operator', ':')) {
        this.next();
      } else {
        whenTrue = this.parseExpression(0);
        this.expect('Operator', ':');
      }
      const whenFalse = this.parseExpression(0);
      this.countNode();
      condition = { kind: 'conditional', condition, whenTrue, whenFalse, offset };
    }
    return condition;
  }

  private parsePrimary(): Node {
    const token = this.current;
    const unary = token.kind === 'Operator' ? UNARY[token.value] : undefined;
    if (unary !== undefined) {
      this.next();
      const operand = this.parseExpression(unary);
      this.countNode();
      return this.parsePostfix({ kind: 'unary', operator: token.value, operand, offset: token.offset });
    }
    if (this.is('Bracket', '(')) {
      this.next();
      const inner = this.parseSequence();
      this.expect('Bracket', ')');
      return this.parsePostfix(inner);
    }
    if (this.is('Operator', '#') || this.is('Operator', '.')) {
      if (this.depth === 0) fail('cannot use pointer accessor outside predicate', token.offset);
      let name = '';
      if (token.value === '#') {
        this.next();
        if (this.current.kind === 'Identifier') {
          name = this.current.value;
          this.next();
        }
      }
      this.countNode();
      return this.parsePostfix({ kind: 'pointer', name, offset: token.offset });
    }
    return this.parseSecondary();
  }

  private parseSecondary(): Node {
    const token = this.current;
    switch (token.kind) {
      case 'Identifier':
        this.next();
        if (this.is('Bracket', '(') && !['true', 'false', 'nil'].includes(token.value))
          return this.parsePostfix(this.parseCall(token, []));
        this.countNode();
        if (token.value === 'true' || token.value === 'false') {
          return { kind: 'bool', value: token.value === 'true', offset: token.offset };
        }
        if (token.value === 'nil') return { kind: 'nil', offset: token.offset };
        return this.parsePostfix({ kind: 'identifier', name: token.value, offset: token.offset });
      case 'Number': {
        this.next();
        const number = parseNumber(token, this.current.offset);
        this.countNode();
        return number;
      }
      case 'String':
        this.next();
        this.countNode();
        return this.parsePostfix({ kind: 'string', value: token.value, offset: token.offset });
      default:
        if (this.is('Bracket', '[')) return this.parsePostfix(this.parseArray());
        if (this.is('Bracket', '{')) return this.parsePostfix(this.parseMap());
        return this.unexpected();
    }
  }

  private parseCall(token: Token, args: Node[]): Node {
    const spec = Object.hasOwn(PREDICATE_BUILTINS, token.value) ? PREDICATE_BUILTINS[token.value] : undefined;
    if (spec) {
      this.expect('Bracket', '(');
      const remaining = spec.slice(args.length);
      for (const [i, arg] of remaining.entries()) {
        if (this.is('Bracket', ')')) {
          if (arg.optional) break;
          fail(`expected at least ${remaining.length} arguments`, this.current.offset);
        }
        if (i > 0) this.expect('Operator', ',');
        args.push(arg.predicate ? this.parsePredicate() : this.parseExpression(0));
      }
      if (this.is('Operator', ',')) this.next();
      this.expect('Bracket', ')');
      this.countNode();
      return { kind: 'builtin', name: token.value, args, offset: token.offset };
    }
    if (EXPR_BUILTIN_NAMES.has(token.value)) {
      const builtinArgs = this.parseArguments(args);
      this.countNode();
      return { kind: 'builtin', name: token.value, args: builtinArgs, offset: token.offset };
    }
    this.countNode();
    const callee: Node = { kind: 'identifier', name: token.value, offset: token.offset };
    const callArgs = this.parseArguments(args);
    this.countNode();
    return { kind: 'call', callee, args: callArgs, offset: token.offset };
  }

  private parseArguments(args: Node[]): Node[] {
    const offset = args.length;
    this.expect('Bracket', '(');
    while (!this.is('Bracket', ')')) {
      if (args.length > offset) this.expect('Operator', ',');
      if (this.is('Bracket', ')')) break;
      args.push(this.parseExpression(0));
    }
    this.expect('Bracket', ')');
    return args;
  }

  private parsePredicate(): Node {
    const offset = this.current.offset;
    const braces = this.is('Bracket', '{');
    if (braces) this.next();
    this.depth++;
    const body = braces ? this.parseSequence() : this.parseExpression(0);
    if (!braces && this.is('Operator', ';'))
      fail('wrap predicate with brackets { and }', this.current.offset);
    this.depth--;
    if (braces) this.expect('Bracket', '}');
    this.countNode();
    return { kind: 'predicate', body, offset };
  }

  private parseArray(): Node {
    const offset = this.current.offset;
    const items: Node[] = [];
    this.expect('Bracket', '[');
    while (!this.is('Bracket', ']')) {
      if (items.length > 0) {
        this.expect('Operator', ',');
        if (this.is('Bracket', ']')) break;
      }
      items.push(this.parseExpression(0));
    }
    this.expect('Bracket', ']');
    this.countNode();
    return { kind: 'array', items, offset };
  }

  private parseMap(): Node {
    const offset = this.current.offset;
    const entries: { key: Node; value: Node }[] = [];
    this.expect('Bracket', '{');
    while (!this.is('Bracket', '}')) {
      if (entries.length > 0) {
        this.expect('Operator', ',');
        if (this.is('Bracket', '}')) break;
        if (this.is('Operator', ',')) this.unexpected();
      }
      let key: Node;
      const token = this.current;
      if (token.kind === 'Number' || token.kind === 'String' || token.kind === 'Identifier') {
        this.countNode();
        key = { kind: 'string', value: token.value, offset: token.offset };
        this.next();
      } else if (this.is('Bracket', '(')) {
        key = this.parseExpression(0);
      } else {
        fail(
          'a map key must be a quoted string, a number, a identifier, or an expression enclosed in parentheses ' +
            `(unexpected token ${describeToken(token)})`,
          token.offset,
        );
      }
      this.expect('Operator', ':');
      entries.push({ key, value: this.parseExpression(0) });
      this.countNode(); // the pair
    }
    this.expect('Bracket', '}');
    this.countNode();
    return { kind: 'map', entries, offset };
  }

  private parsePostfix(node: Node): Node {
    for (;;) {
      let optional = false;
      if (this.is('Operator', '.') || this.is('Operator', '?.')) {
        optional = this.current.value === '?.';
        this.next();
        if (!(optional && this.is('Bracket', '['))) {
          node = this.parseProperty(node, optional);
          continue;
        }
      }
      if (!this.is('Bracket', '[')) return node;
      node = this.parseIndexOrSlice(node, optional);
    }
  }

  private parseProperty(node: Node, optional: boolean): Node {
    const token = this.current;
    this.next();
    // Word operators such as `not` or `matches` are valid property names too.
    const isWord = token.kind === 'Operator' && /^[\p{L}_$][\p{L}\p{Nd}_$]*$/u.test(token.value);
    if (token.kind !== 'Identifier' && !isWord) fail('expected name', this.current.offset);
    const isChain = node.kind === 'chain';
    this.countNode();
    const property: StringNode = { kind: 'string', value: token.value, offset: token.offset };
    const object = node.kind === 'chain' ? node.node : node;
    this.countNode();
    let result: Node = { kind: 'member', object, property, optional, offset: token.offset };
    if (this.is('Bracket', '(')) {
      const args = this.parseArguments([]);
      this.countNode();
      result = { kind: 'call', callee: result, args, offset: token.offset };
    }
    if (!isChain && !optional) return result;
    this.countNode();
    return { kind: 'chain', node: result, offset: token.offset };
  }

  private parseIndexOrSlice(node: Node, optional: boolean): Node {
    const offset = this.current.offset;
    this.next();
    if (this.is('Operator', ':')) {
      this.next();
      const to = this.is('Bracket', ']') ? undefined : this.parseExpression(0);
      this.countNode();
      this.expect('Bracket', ']');
      return { kind: 'slice', object: node, to, offset };
    }
    const from = this.parseExpression(0);
    if (this.is('Operator', ':')) {
      this.next();
      const to = this.is('Bracket', ']') ? undefined : this.parseExpression(0);
      this.countNode();
      this.expect('Bracket', ']');
      return { kind: 'slice', object: node, from, to, offset };
    }
    this.countNode();
    if (optional) this.countNode();
    this.expect('Bracket', ']');
    const member: Node = { kind: 'member', object: node, property: from, optional, offset };
    return optional ? { kind: 'chain', node: member, offset } : member;
  }

  /** expr's checkNodeLimit, called where its parser creates a node; the error points at the current token. */
  private countNode(): void {
    if (++this.nodes > MAX_NODES)
      fail('compilation failed: expression exceeds maximum allowed nodes', this.current.offset);
  }

  private is(kind: TokenKind, value?: string): boolean {
    return this.current.kind === kind && (value === undefined || this.current.value === value);
  }

  private next(): void {
    if (this.pos < this.tokens.length - 1) this.pos++;
    else fail('unexpected end of expression', this.current.offset);
  }

  private expect(kind: TokenKind, value?: string): void {
    if (!this.is(kind, value)) this.unexpected();
    this.next();
  }

  private unexpected(): never {
    return fail(`unexpected token ${describeToken(this.current)}`, this.current.offset);
  }
}

/** A number literal; a bad one is reported at `errorOffset`, the token after it, as expr's parser does. */
function parseNumber(token: Token, errorOffset: number): Node {
  const text = token.value.replace(/_/g, '');
  const lower = text.toLowerCase();
  const offset = token.offset;
  const goError = (kind: string, detail: string): never =>
    fail(
      `invalid ${kind} literal: strconv.Parse${kind === 'float' ? 'Float' : 'Int'}: parsing ${JSON.stringify(text)}: ${detail}`,
      errorOffset,
    );
  let kind = 'integer';
  if (lower.startsWith('0x')) kind = 'hex';
  else if (/[.e]/.test(lower)) kind = 'float';
  else if (lower.startsWith('0b')) kind = 'binary';
  else if (lower.startsWith('0o')) kind = 'octal';
  if (kind === 'float') {
    if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(lower)) goError('float', 'invalid syntax');
    const value = Number(lower);
    if (!Number.isFinite(value)) goError('float', 'value out of range');
    return { kind: 'float', value, offset };
  }
  const syntax = { integer: /^\d+$/, hex: /^0x[0-9a-f]+$/, binary: /^0b[01]+$/, octal: /^0o[0-7]+$/ }[kind]!;
  if (!syntax.test(lower)) goError(kind, 'invalid syntax');
  const value = BigInt(lower);
  if (value > 0x7fffffffffffffffn) goError(kind, 'value out of range');
  return { kind: 'int', value, offset };
}
