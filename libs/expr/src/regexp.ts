// Go's regexp (RE2 syntax, linear-time matching) through re2js, a JavaScript port of RE2: no translation to
// JavaScript's backtracking RegExp, so a pattern like `^(a+)+$` cannot take exponential time.
import { RE2JS, RE2JSException } from 're2js';

import { fail } from './errors.js';

const cache = new Map<string, RE2JS>();
const CACHE_SIZE = 500;

/** Compiles a Go regexp; throws a Fault with Go's `error parsing regexp: ...` text when Go would reject it. */
export function compileGoRegexp(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (!re) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      if (e instanceof RE2JSException) fail(e.message);
      throw e;
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(pattern, re);
  }
  return re;
}

/** Go's `regexp.MatchString`: does the pattern match anywhere in `text`? */
export function goRegexpMatch(pattern: string, text: string): boolean {
  return compileGoRegexp(pattern).test(text);
}

export interface GoMatch {
  readonly start: number;
  readonly end: number;
  /** The submatches, index 0 being the whole match; null for a group that did not take part. */
  readonly groups: readonly (string | null)[];
}

/** Go's allMatches: successive matches, an empty match right after a previous match is skipped; n < 0 is all. */
export function goFindAll(pattern: string, text: string, n: number): GoMatch[] {
  const re = compileGoRegexp(pattern);
  const matcher = re.matcher(text);
  const count = re.groupCount();
  const out: GoMatch[] = [];
  let pos = 0;
  let previousEnd = -1;
  while ((n < 0 || out.length < n) && pos <= text.length) {
    if (!matcher.find(pos)) break;
    const start = matcher.start();
    const end = matcher.end();
    let accept = true;
    if (end === pos) {
      if (start === previousEnd) accept = false;
      pos += pos < text.length ? String.fromCodePoint(text.codePointAt(pos)!).length : 1;
    } else {
      pos = end;
    }
    previousEnd = end;
    if (accept) {
      const groups = Array.from({ length: count + 1 }, (_, g) => matcher.group(g) ?? null);
      out.push({ start, end, groups });
    }
  }
  return out;
}

/** Regexp.Expand's template: `$1`, `${1}`, `$name`, `${name}`, `$$`. */
function expand(template: string, match: GoMatch, names: Record<string, number>): string {
  return template.replace(
    /\$(\$|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g,
    (all, _x, braced?: string, bare?: string) => {
      if (all === '$$') return '$';
      const name = braced ?? bare!;
      const index = /^\d+$/.test(name) ? Number(name) : Object.hasOwn(names, name) ? names[name] : undefined;
      return index === undefined ? '' : (match.groups[index] ?? '');
    },
  );
}

/** Regexp.ReplaceAllString (template expansion) or ReplaceAllLiteralString. */
export function goReplaceAll(pattern: string, text: string, replacement: string, literal: boolean): string {
  const names = compileGoRegexp(pattern).namedGroups();
  let out = '';
  let last = 0;
  for (const m of goFindAll(pattern, text, -1)) {
    out += text.slice(last, m.start) + (literal ? replacement : expand(replacement, m, names));
    last = m.end;
  }
  return out + text.slice(last);
}

/** Regexp.Split. */
export function goSplit(pattern: string, text: string, n: number): string[] {
  compileGoRegexp(pattern); // sprig compiles first: a bad pattern fails even for n = 0 or an empty text
  if (n === 0) return [];
  if (pattern.length > 0 && text.length === 0) return [''];
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of goFindAll(pattern, text, n)) {
    if (n > 0 && out.length === n - 1) break;
    end = m.start;
    if (m.end !== 0) out.push(text.slice(beg, end));
    beg = m.end;
  }
  if (end !== text.length) out.push(text.slice(beg));
  return out;
}

/** regexp.QuoteMeta. */
export function goQuoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, (c) => `\\${c}`);
}
