// For a selector that evaluated to false: which of its `&&` conditions is false, and what its left side was,
// so `events test` can say `payload.ref == "main" is false: payload.ref is "dev"` instead of `value: false`.
import { evaluate, type Environment } from '@app/expr';

const OPEN = new Set(['(', '[', '{']);
const CLOSE = new Set([')', ']', '}']);

/** Splits `text` at top-level occurrences of `separators` (outside brackets and string literals). */
function splitTopLevel(text: string, separators: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) depth--;
    else if (depth === 0) {
      separators.lastIndex = i;
      const m = separators.exec(text);
      if (m && m.index === i) {
        parts.push(text.slice(start, i));
        i += m[0].length - 1;
        start = i + 1;
      }
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

export interface FailedCondition {
  /** The condition, as written. */
  condition: string;
  /** The value of its left side, when it is a comparison (`payload.ref is "dev"`). */
  actual?: string;
}

function quietly(source: string, env: Environment): { value?: unknown; ok: boolean } {
  try {
    return { value: evaluate(source, env), ok: true };
  } catch {
    return { ok: false };
  }
}

/** The first false condition of a false selector (the whole selector when it is not a conjunction). */
export function failedCondition(selector: string, env: Environment): FailedCondition | undefined {
  const conditions = splitTopLevel(selector, /&&|\band\b/y);
  const failed = conditions.find((c) => {
    const r = quietly(c, env);
    return r.ok && r.value === false;
  });
  if (!failed) return undefined;
  const comparison = splitTopLevel(failed, /==|!=|>=|<=|\bin\b|\bmatches\b|\bcontains\b/y);
  if (comparison.length !== 2) return { condition: failed };
  const left = quietly(comparison[0], env);
  return {
    condition: failed,
    ...(left.ok && {
      actual: `${comparison[0]} is ${left.value == null ? 'nil' : JSON.stringify(left.value)}`,
    }),
  };
}
