// github.com/evilmonkeyinc/jsonpath v0.8.1, as Argo's `jsonpath(json, path)` runs it: the path is split
// into tokens (`$`, `@`, `.key`, `['key']`, `[n]`, `[a:b]`, `[*]`, `..`, `.length`, unions `[0,2]`/`['a','b']`,
// filters `[?(...)]`), and each token applies the rest of the chain to what it selects.
import { fail, Fault } from './errors.js';
import { byteLength } from './go-bytes.js';
import { FilterScript, includes } from './jsonpath-script.js';
import { GoInt } from './values.js';
import type { ExprValue } from './values.js';

type Token =
  | { readonly kind: 'root' | 'current' | 'wildcard' | 'recursive' | 'length' }
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'range'; readonly from?: number; readonly to?: number }
  | { readonly kind: 'union'; readonly keys: readonly string[]; readonly indices: readonly number[] }
  | { readonly kind: 'filter'; readonly script: FilterScript };

const invalidFormat = (token: string): never =>
  fail(`invalid token. '${token}' does not match any token format`);

/** token.Tokenize: splits a path at `.` and around `[...]`, minding quotes and script parentheses. */
function tokenize(selector: string): string[] {
  if (selector === '') return fail("unexpected token '' at index 0");
  const tokens: string[] = [];
  let token = '';
  let quotes = 0;
  let scriptOpen = 0;
  let scriptClose = 0;
  let subscriptOpen = 0;
  let subscriptClose = 0;
  const chars = Array.from(selector);
  for (const [i, c] of chars.entries()) {
    if (token === '') {
      quotes = 0;
      scriptOpen = 0;
      scriptClose = 0;
    }
    if (c === "'") quotes++;
    else if (c === '(') scriptOpen++;
    else if (c === ')') scriptClose++;
    else if (c === '[') subscriptOpen++;
    else if (c === ']') subscriptClose++;
    token += c;
    if (i === 0) {
      if (token !== '$' && token !== '@') return fail(`unexpected token '${c}' at index ${i}`);
      if (selector.length > 1 && selector[1] !== '.' && selector[1] !== '[')
        return fail(`unexpected token '${selector[1]}' at index ${i + 1}`);
      tokens.push(token);
      token = '';
      continue;
    }
    if (token === '.') continue;
    if (token === '..') {
      tokens.push(token);
      token = '';
      continue;
    }
    if (c === '[') {
      if (token === '[' || token === '.[') continue;
      if (token.split('[').length - 1 > 1) continue;
      tokens.push(token.startsWith('.') ? token.slice(1, -1) : token.slice(0, -1));
      token = '[';
      continue;
    }
    if (token.includes('[')) {
      if (quotes % 2 === 1 || scriptOpen !== scriptClose) continue;
      if (c === ']' && subscriptOpen === subscriptClose) {
        tokens.push(token.startsWith('.') ? token.slice(1) : token);
        token = '';
      }
    } else if (c === '.') {
      if (quotes % 2 === 1 || scriptOpen !== scriptClose) continue;
      tokens.push(token.startsWith('.') ? token.slice(1, -1) : token.slice(0, -1));
      token = '.';
    }
  }
  if (token.length > 0) tokens.push(token.startsWith('.') ? token.slice(1) : token);
  return tokens;
}

const isQuotedKey = (s: string): boolean =>
  s.length > 1 && ((s.startsWith("'") && s.endsWith("'")) || (s.startsWith('"') && s.endsWith('"')));
const integer = (s: string): number | undefined => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);

/** token.Parse for one token string. */
function parseToken(raw: string): Token {
  const text = raw.trim();
  if (text === '') return fail('invalid token. token string is empty');
  if (text === '$') return { kind: 'root' };
  if (text === '@') return { kind: 'current' };
  if (text === '*') return { kind: 'wildcard' };
  if (text === '..') return { kind: 'recursive' };
  if (!text.startsWith('[')) return text === 'length' ? { kind: 'length' } : { kind: 'key', key: text };
  if (!text.endsWith(']')) return invalidFormat(text);
  const subscript = text.slice(1, -1).trim();
  if (subscript === '') return invalidFormat(text);
  if (subscript === '*') return { kind: 'wildcard' };
  if (subscript.startsWith('?')) {
    if (!subscript.startsWith('?(') || !subscript.endsWith(')')) return invalidFormat(text);
    return { kind: 'filter', script: new FilterScript(subscript.slice(2, -1).trim(), select) };
  }
  if (isQuotedKey(subscript) && !/^(['"]).*\1\s*,/.test(subscript))
    return { kind: 'key', key: subscript.slice(1, -1) };
  const single = integer(subscript);
  if (single !== undefined) return { kind: 'index', index: single };
  if (subscript.includes(':') && !subscript.includes(',')) {
    const parts = subscript.split(':').map((p) => p.trim());
    if (parts.length > 3 || parts.some((p) => p !== '' && integer(p) === undefined))
      return invalidFormat(text);
    if (parts.length === 3 && parts[2] !== '') return fail('unsupported jsonpath syntax: range step');
    return {
      kind: 'range',
      from: parts[0] === '' ? undefined : Number(parts[0]),
      to: parts[1] === '' ? undefined : Number(parts[1]),
    };
  }
  if (subscript.includes(',')) {
    const args = subscript.split(',').map((p) => p.trim());
    if (args.some((a) => a === '')) return invalidFormat(text);
    const keys = args.filter(isQuotedKey).map((a) => a.slice(1, -1));
    const indices = args.map(integer).filter((n): n is number => n !== undefined);
    if (keys.length + indices.length !== args.length || (keys.length > 0 && indices.length > 0))
      return invalidFormat(text);
    return { kind: 'union', keys, indices };
  }
  return invalidFormat(text);
}

function compile(path: string): Token[] {
  return tokenize(path).map(parseToken);
}

export function jsonPathGet(path: string, document: ExprValue): ExprValue {
  const tokens = compile(path);
  return applyChain(tokens, 0, document, document);
}

/** A selector inside a filter (`@.n`, `$.limit`), run against the filter's root and element. */
function select(selector: string, root: ExprValue, current: ExprValue): ExprValue {
  return applyChain(compile(selector), 0, root, current);
}

const byCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const sortedValues = (m: Map<unknown, ExprValue>): ExprValue[] =>
  [...m.keys()]
    .map(String)
    .sort(byCodePoints)
    .map((k) => m.get(k)!);

/** The rest of the chain applied to one element: undefined when it fails or gives nil (it is left out). */
function forElement(
  tokens: readonly Token[],
  i: number,
  root: ExprValue,
  element: ExprValue,
): ExprValue | undefined {
  try {
    const value = applyChain(tokens, i, root, element);
    return value === null ? undefined : value;
  } catch (e) {
    if (e instanceof Fault) return undefined;
    throw e;
  }
}

/** What a union, range or filter selected: an index next applies to the list, anything else to each element. */
function continueWith(
  tokens: readonly Token[],
  i: number,
  root: ExprValue,
  elements: ExprValue[],
): ExprValue {
  if (i >= tokens.length) return elements;
  if (tokens[i]!.kind === 'index') return applyChain(tokens, i, root, elements);
  return elements.map((e) => forElement(tokens, i, root, e)).filter((v): v is ExprValue => v !== undefined);
}

function applyChain(tokens: readonly Token[], i: number, root: ExprValue, current: ExprValue): ExprValue {
  if (i >= tokens.length) return current;
  const token = tokens[i]!;
  const next = (value: ExprValue): ExprValue => applyChain(tokens, i + 1, root, value);
  switch (token.kind) {
    case 'root':
      return next(root);
    case 'current':
      return next(current);
    case 'key':
      if (!(current instanceof Map)) return fail(`object is not map`);
      if (!current.has(token.key)) return fail(`key error: ${token.key} not found in object`);
      return next(current.get(token.key)!);
    case 'index': {
      if (!Array.isArray(current)) return fail(`object is not Slice`);
      const at = token.index < 0 ? current.length + token.index : token.index;
      if (at < 0 || at >= current.length)
        return fail(`index out of range: len: ${current.length}, idx: ${token.index}`);
      return next(current[at]!);
    }
    case 'range': {
      if (!Array.isArray(current)) return fail(`object is not Slice`);
      const length = current.length;
      const norm = (n: number | undefined, fallback: number): number =>
        n === undefined ? fallback : Math.min(length, n < 0 ? Math.max(0, length + n) : n);
      return continueWith(tokens, i + 1, root, current.slice(norm(token.from, 0), norm(token.to, length)));
    }
    case 'wildcard': {
      let items: ExprValue[];
      if (Array.isArray(current)) items = current;
      else if (current instanceof Map) items = sortedValues(current);
      else return fail(`object is not Slice`);
      if (i + 1 >= tokens.length) return [...items];
      return items
        .map((e) => forElement(tokens, i + 1, root, e))
        .filter((v): v is ExprValue => v !== undefined);
    }
    case 'recursive':
      return descend(tokens, i + 1, root, current, []);
    case 'length': {
      let length: ExprValue;
      if (current instanceof Map)
        length = current.has('length') ? current.get('length')! : new GoInt('int64', BigInt(current.size));
      else if (Array.isArray(current)) length = new GoInt('int64', BigInt(current.length));
      else if (typeof current === 'string') length = new GoInt('int64', BigInt(byteLength(current)));
      else return fail(`length: invalid token target. expected [array map slice string]`);
      return next(length);
    }
    case 'union': {
      if (token.keys.length > 0) {
        if (!(current instanceof Map)) return fail(`union: invalid token target. expected [map]`);
        const found = token.keys.filter((k) => current.has(k)).map((k) => current.get(k)!);
        return continueWith(tokens, i + 1, root, found);
      }
      if (!Array.isArray(current)) return fail(`union: invalid token target. expected [array slice]`);
      const picked = token.indices.map((n) => {
        const at = n < 0 ? current.length + n : n;
        if (at < 0 || at >= current.length) return fail('union: invalid token out of range');
        return current[at]!;
      });
      return continueWith(tokens, i + 1, root, picked);
    }
    case 'filter': {
      let items: ExprValue[];
      if (Array.isArray(current)) items = current;
      else if (current instanceof Map) items = sortedValues(current);
      else return fail(`filter: invalid token target. expected [array map slice]`);
      const kept = items.filter((e) => includes(token.script.evaluate(root, e)));
      return continueWith(tokens, i + 1, root, kept);
    }
  }
}

/**
 * Recursive descent (`$..name`, `$..[0]`, `$..*`): the rest of the chain is tried on every node, the node
 * first, then its children (a map's in key order); a node where it fails or gives nil adds nothing, a list it
 * gives adds its elements. With nothing after `..`, every node is listed.
 */
function descend(
  tokens: readonly Token[],
  i: number,
  root: ExprValue,
  node: ExprValue,
  out: ExprValue[],
): ExprValue[] {
  if (node === null) return out;
  if (i >= tokens.length) out.push(node);
  else {
    let found: ExprValue = null;
    try {
      found = applyChain(tokens, i, root, node);
    } catch (e) {
      if (!(e instanceof Fault)) throw e;
    }
    if (Array.isArray(found)) out.push(...found);
    else if (found !== null) out.push(found);
  }
  const children = node instanceof Map ? sortedValues(node) : Array.isArray(node) ? node : [];
  for (const child of children) descend(tokens, i, root, child, out);
  return out;
}
