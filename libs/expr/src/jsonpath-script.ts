// The filter expressions of github.com/evilmonkeyinc/jsonpath v0.8.1 (its "standard" script engine), as
// `[?(...)]` evaluates them: the expression is split at the first unquoted operator of a fixed precedence
// list, operands are selectors (`@.x`, `$.y`), numbers, quoted strings or JSON, compared through their text.
import { Fault } from './errors.js';
import { formatValue } from './go-format.js';
import { goRegexpMatch } from './regexp.js';
import { unmarshal } from './go-json.js';
import type { ExprValue } from './values.js';

const OPERATORS = [
  '||',
  '&&',
  '==',
  '!=',
  '<=',
  '>=',
  '<',
  '>',
  '=~',
  '!',
  '+',
  '-',
  '**',
  '*',
  '/',
  '%',
  'not in',
  'in',
  '@',
  '$',
];

class ScriptError extends Error {}
const invalid = (what: string): never => {
  throw new ScriptError(`invalid argument. ${what}`);
};

type Parameters = ReadonlyMap<string, ExprValue>;
/** A selector's value: runs a jsonpath (starting at `@` or `$`) against the parameters' root and current. */
export type SelectorRunner = (selector: string, root: ExprValue, current: ExprValue) => ExprValue;

interface Operator {
  readonly op: string;
  readonly left: Argument;
  readonly right: Argument;
  readonly selector?: string;
}
type Argument = Operator | string | ExprValue[] | Map<string, ExprValue> | null;

const isOperator = (a: unknown): a is Operator =>
  typeof a === 'object' && a !== null && !Array.isArray(a) && !(a instanceof Map) && 'op' in a;

/** findUnquotedOperators: the first place `operator` occurs outside quotes and brackets. */
function findUnquoted(source: string, operator: string): number {
  let single = false;
  let double = false;
  let squareOpen = 0;
  let squareClose = 0;
  let roundOpen = 0;
  let roundClose = 0;
  const inSquare = (): boolean => squareOpen > squareClose;
  const inRound = (): boolean => roundOpen > roundClose;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '(') {
      if (single || double || inSquare()) continue;
      roundOpen++;
    } else if (c === ')') {
      if (single || double || inSquare()) continue;
      roundClose++;
    } else if (c === '[') {
      if (single || double || inRound()) continue;
      squareOpen++;
    } else if (c === ']') {
      if (single || double || inRound()) continue;
      squareClose++;
    } else if (c === "'") {
      if (double || inSquare() || inRound()) continue;
      single = !single;
    } else if (c === '"') {
      if (single || inSquare() || inRound()) continue;
      double = !double;
    }
    if (single || double || inSquare() || inRound()) continue;
    if (operator.length > i + 1) continue;
    const start = i + 1 - operator.length;
    if (source.slice(start, i + 1) === operator) return start;
  }
  return -1;
}

function build(text: string, tokens: readonly string[]): Operator | null {
  const next = tokens[0]!;
  let expression = text.trim();
  let list = tokens;
  if (expression === '') return null;
  if (expression.startsWith('(') && expression.endsWith(')')) {
    expression = expression.slice(1, -1).trim();
    list = ['', ...OPERATORS];
  }
  const skip = (): Operator | null => (list.length === 1 ? null : build(expression, list.slice(1)));
  const at = findUnquoted(expression, next);
  if (at < 0) return skip();
  const rightText = expression.slice(at + next.length).trim();
  if (rightText === '' && next !== '$' && next !== '@') return skip();
  const right = argument(rightText, list);
  const leftText = expression.slice(0, at).trim();
  if (leftText === '' && next !== '$' && next !== '@' && next !== '!') return skip();
  const left = argument(leftText, list);
  if (next === '@' || next === '$') {
    if (left !== null) return skip();
    return { op: 'selector', left: null, right: null, selector: expression };
  }
  if (next === '!' && left !== null) return skip();
  if (!OPERATORS.includes(next)) throw new ScriptError('unsupported operator');
  return { op: next, left, right };
}

function argument(text: string, tokens: readonly string[]): Argument {
  const op = build(text, tokens);
  if (op) return op;
  const arg = text.trim();
  if (arg === '') return null;
  if ((arg.startsWith('[') && arg.endsWith(']')) || (arg.startsWith('{') && arg.endsWith('}'))) {
    try {
      const parsed = unmarshal(arg);
      if (Array.isArray(parsed) === arg.startsWith('[')) return parsed as ExprValue[];
    } catch (e) {
      if (!(e instanceof Fault)) throw e;
    }
  }
  return arg;
}

/** A compiled filter expression; throws at compile time for what the engine rejects. */
export class FilterScript {
  private readonly root: Operator | null;

  constructor(
    readonly expression: string,
    private readonly select: SelectorRunner,
  ) {
    try {
      this.root = build(expression, OPERATORS);
    } catch (e) {
      if (e instanceof ScriptError) throw new Fault(`invalid expression. ${e.message}`);
      throw e;
    }
  }

  /** The expression's value for one element, or undefined when it fails (the filter then leaves it out). */
  evaluate(root: ExprValue, current: ExprValue): ExprValue | undefined {
    const parameters: Parameters = new Map<string, ExprValue>([
      ['$', root],
      ['@', current],
      ['nil', null],
      ['null', null],
    ]);
    try {
      if (this.root === null) {
        if (parameters.has(this.expression)) return parameters.get(this.expression)!;
        const n = parseNumber(this.expression);
        if (n !== undefined) return n;
        const b = parseBool(this.expression);
        if (b !== undefined) return b;
        return this.expression;
      }
      return this.run(this.root, parameters);
    } catch (e) {
      if (e instanceof ScriptError || e instanceof Fault) return undefined;
      throw e;
    }
  }

  private resolve(arg: Argument, parameters: Parameters): ExprValue | Argument {
    if (isOperator(arg)) return this.run(arg, parameters);
    if (typeof arg === 'string' && parameters.has(arg)) return parameters.get(arg)!;
    return arg;
  }

  private number(arg: Argument, parameters: Parameters): number {
    if (arg === null) return invalid('is nil');
    const v = this.resolve(arg, parameters);
    const n = parseNumber(text(v));
    return n === undefined ? invalid('expected number') : n;
  }

  private bool(arg: Argument, parameters: Parameters): boolean {
    if (arg === null) return false;
    const v = this.resolve(arg, parameters);
    if (v === null) return false;
    const b = parseBool(text(v));
    return b === undefined ? invalid('expected boolean') : b;
  }

  private string(arg: Argument, parameters: Parameters): string {
    if (arg === null) return invalid('is nil');
    const evaluated = isOperator(arg) ? this.run(arg, parameters) : arg;
    if (typeof evaluated === 'string') {
      if (parameters.has(evaluated)) {
        const value = parameters.get(evaluated)!;
        if (typeof value === 'string') return quoted(value);
        return text(value);
      }
      if (evaluated.length > 1 && evaluated.startsWith("'") && evaluated.endsWith("'")) return evaluated;
      if (evaluated.length > 1 && evaluated.startsWith('"') && evaluated.endsWith('"'))
        return `'${evaluated.slice(1, -1)}'`;
      return evaluated;
    }
    return text(evaluated as ExprValue);
  }

  private elements(arg: Argument, parameters: Parameters): ExprValue[] {
    if (arg === null) return invalid('is nil');
    let v = this.resolve(arg, parameters);
    if (typeof v === 'string' && /^(\{.*\}|\[.*\])$/s.test(v)) {
      try {
        v = unmarshal(v);
      } catch {
        return invalid('');
      }
    }
    if (Array.isArray(v)) return v;
    if (v instanceof Map) return [...v.values()];
    if (v === null) return invalid('is nil');
    return invalid('expected array, map, or slice');
  }

  private run(op: Operator, parameters: Parameters): ExprValue {
    const { left, right } = op;
    const num = (a: Argument): number => this.number(a, parameters);
    switch (op.op) {
      case 'selector': {
        const value = this.select(op.selector!, parameters.get('$')!, parameters.get('@')!);
        return typeof value === 'string' ? quoted(value) : value;
      }
      case '||': {
        const a = this.bool(left, parameters);
        return this.bool(right, parameters) || a;
      }
      case '&&': {
        const a = this.bool(left, parameters);
        return this.bool(right, parameters) && a;
      }
      case '==':
      case '!=': {
        let equal: boolean;
        try {
          equal = num(left) === num(right);
        } catch (e) {
          if (!(e instanceof ScriptError)) throw e;
          equal = this.string(left, parameters) === this.string(right, parameters);
        }
        return op.op === '==' ? equal : !equal;
      }
      case '<':
        return num(left) < num(right);
      case '<=':
        return num(left) <= num(right);
      case '>':
        return num(left) > num(right);
      case '>=':
        return num(left) >= num(right);
      case '!':
        return !this.bool(right, parameters);
      case '+':
        return num(left) + num(right);
      case '-':
        return num(left) - num(right);
      case '*':
        return num(left) * num(right);
      case '/':
        return num(left) / num(right);
      case '%':
        return num(left) % num(right);
      case '**':
        return num(left) ** num(right);
      case '=~': {
        const unquote = (s: string): string =>
          s.length > 1 && s.startsWith("'") && s.endsWith("'") ? s.slice(1, -1) : s;
        const subject = unquote(this.string(left, parameters));
        const pattern = unquote(this.string(right, parameters));
        try {
          return goRegexpMatch(pattern, subject);
        } catch {
          return invalid('expected a valid regexp');
        }
      }
      case 'in':
      case 'not in': {
        let item: ExprValue;
        try {
          item = num(left);
        } catch {
          item = this.string(left, parameters);
        }
        const found = this.elements(right, parameters).some((e) => e === item);
        return op.op === 'in' ? found : !found;
      }
    }
    throw new ScriptError('unsupported operator');
  }
}

const quoted = (s: string): string => (s.length > 1 && s.startsWith("'") && s.endsWith("'") ? s : `'${s}'`);

/** fmt's %v of an operand. */
const text = (v: ExprValue | Argument): string => (typeof v === 'string' ? v : formatValue(v as ExprValue));

/** strconv.ParseFloat (decimal, hexadecimal, inf, nan). */
function parseNumber(s: string): number | undefined {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number(s);
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return undefined;
}

/** strconv.ParseBool. */
function parseBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/** The filter's inclusion test for an evaluation. */
export function includes(value: ExprValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  if (typeof value === 'string') {
    const inner =
      value.length > 1 &&
      ((value.startsWith("'") && value.endsWith("'")) || (value.startsWith('"') && value.endsWith('"')))
        ? value.slice(1, -1)
        : value;
    return inner !== '';
  }
  if (typeof value === 'number') return !Object.is(value, 0);
  return true;
}
