// A subset of github.com/oliveagle/jsonpath (used by Argo's `jsonpath(json, path)`):
// `$`, `.key`, `['key']`/`["key"]`, `[n]` (negative counts from the end), `[a:b]`, `[*]` and `.*`.
import { fail } from './errors.js';
import type { ExprValue } from './values.js';

type Step =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'slice'; readonly from?: number; readonly to?: number }
  | { readonly kind: 'wildcard' };

const STEP =
  /^(?:\.([A-Za-z0-9_-]+)|\.\*|\[\*\]|\[(-?\d+)\]|\[(-?\d*):(-?\d*)\]|\['([^']*)'\]|\["([^"]*)"\])/;

function parsePath(path: string): Step[] {
  if (!path.startsWith('$')) fail(`should start with '$'`);
  const steps: Step[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
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
  let current: ExprValue = document;
  let multiple = false;
  for (const step of parsePath(path)) {
    const values: ExprValue[] = multiple && Array.isArray(current) ? current : [current];
    const results = values.flatMap((value) => apply(step, value));
    multiple = multiple || step.kind === 'slice' || step.kind === 'wildcard';
    current = multiple ? results : (results[0] ?? null);
  }
  return current;
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
