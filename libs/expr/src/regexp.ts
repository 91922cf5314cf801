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
