// A subset of github.com/evilmonkeyinc/jsonpath v0.8.1 (Argo's `jsonpath(json, path)`):
// `$`, `.key`, `['key']`/`["key"]`, `[n]` (negative counts from the end), `[a:b]`, `[*]`, `.*` and `..` (recursive descent).
import { fail, Fault } from './errors.js';
import type { ExprValue } from './values.js';

type Step =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'slice'; readonly from?: number; readonly to?: number }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'recursive' };

const STEP =
  /^(?:\.([A-Za-z0-9_-]+)|\.\*|\[\*\]|\[(-?\d+)\]|\[(-?\d*):(-?\d*)\]|\['([^']*)'\]|\["([^"]*)"\])/;

function parsePath(path: string): Step[] {
  if (!path.startsWith('$')) fail(`should start with '$'`);
  const steps: Step[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    if (rest.startsWith('..')) {
      steps.push({ kind: 'recursive' });
      rest = rest.slice(2);
      if (/^[A-Za-z0-9_*-]/.test(rest)) rest = `.${rest}`; // `..name` and `..*` name the next step
      continue;
    }
    const m = STEP.exec(rest);
    if (!m) return fail(`unsupported jsonpath syntax: ${JSON.stringify(rest)}`);
    const [text, key, index, from, to, single, double] = m;
    if (key !== undefined) steps.push({ kind: 'key', key });
    else if (single !== undefined || double !== undefined)
      steps.push({ kind: 'key', key: (single ?? double)! });
    else if (index !== undefined) steps.push({ kind: 'index', index: Number(index) });
    else if (from !== undefined) {
      steps.push({
        kind: 'slice',
        from: from === '' ? undefined : Number(from),
        to: to === '' ? undefined : Number(to),
      });
    } else steps.push({ kind: 'wildcard' });
    rest = rest.slice(text.length);
  }
  return steps;
}

export function jsonPathGet(path: string, document: ExprValue): ExprValue {
  return evaluateSteps(parsePath(path), document);
}

function evaluateSteps(steps: readonly Step[], document: ExprValue): ExprValue {
  let current: ExprValue = document;
  let multiple = false;
  for (const [i, step] of steps.entries()) {
    if (step.kind === 'recursive') return descend(steps.slice(i + 1), current, []);
    const values: ExprValue[] = multiple && Array.isArray(current) ? current : [current];
    const results = values.flatMap((value) => apply(step, value));
    multiple = multiple || step.kind === 'slice' || step.kind === 'wildcard';
    current = multiple ? results : (results[0] ?? null);
  }
  return current;
}

/**
 * Recursive descent (`$..name`, `$..[0]`, `$..`): the rest of the path is tried on every node, the node first,
 * then its children (a map's in key order, a list's in order); a node where it fails or gives nil adds
 * nothing, a list it gives adds its elements. With nothing after `..`, every node is listed.
 */
function descend(rest: readonly Step[], node: ExprValue, out: ExprValue[]): ExprValue[] {
  if (node === null) return out;
  if (rest.length === 0) out.push(node);
  else {
    let found: ExprValue = null;
    try {
      found = evaluateSteps(rest, node);
    } catch (e) {
      if (!(e instanceof Fault)) throw e;
    }
    if (Array.isArray(found)) out.push(...found);
    else if (found !== null) out.push(found);
  }
  if (node instanceof Map) {
    const keys = [...node.keys()].map(String).sort(byCodePoints);
    for (const key of keys) descend(rest, node.get(key)!, out);
  } else if (Array.isArray(node)) for (const item of node) descend(rest, item, out);
  return out;
}

function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function apply(step: Step, value: ExprValue): ExprValue[] {
  switch (step.kind) {
    case 'key':
      if (!(value instanceof Map)) return fail(`object is not map`);
      if (!value.has(step.key)) return fail(`key error: ${step.key} not found in object`);
      return [value.get(step.key)!];
    case 'wildcard':
      if (Array.isArray(value)) return value;
      if (value instanceof Map) return [...value.values()];
      return fail(`object is not Slice`);
    case 'recursive':
      return [];
    default: {
      if (!Array.isArray(value)) return fail(`object is not Slice`);
      const length = value.length;
      if (step.kind === 'index') {
        const i = step.index < 0 ? length + step.index : step.index;
        if (i < 0 || i >= length) return fail(`index out of range: len: ${length}, idx: ${step.index}`);
        return [value[i]!];
      }
      const norm = (n: number | undefined, fallback: number): number =>
        n === undefined ? fallback : Math.min(length, n < 0 ? Math.max(0, length + n) : n);
      return value.slice(norm(step.from, 0), norm(step.to, length));
    }
  }
}
