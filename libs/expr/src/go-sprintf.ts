import { goFormat } from './go-format.js';
import { GoInt, GoLocation, GoTime, goTypeName, type ExprValue } from './values.js';

/**
 * Go's `fmt.Sprintf("%s", v)` for an expression result: strings as they are, lists and maps element-wise, any
 * other value as `%!s(<type>=<value>)` and nil as `%!s(<nil>)`. Argo uses it in
 * `unable to cast expression result '%s' to bool` (event selectors, HTTP templates' successCondition).
 */
export function sprintS(value: ExprValue): string {
  if (typeof value === 'string') return value;
  if (value === null) return '%!s(<nil>)';
  // Types with a String method (time.Time, time.Duration, time.Month, *time.Location) print through it.
  if (value instanceof GoTime || value instanceof GoLocation) return goFormat(value);
  if (value instanceof GoInt && value.type.startsWith('time.')) return goFormat(value);
  if (Array.isArray(value)) return `[${value.map(sprintS).join(' ')}]`;
  if (value instanceof Map) {
    const entries = [...value].sort(([a], [b]) =>
      String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0,
    );
    return `map[${entries.map(([k, v]) => `${sprintS(k)}:${sprintS(v)}`).join(' ')}]`;
  }
  return `%!s(${goTypeName(value)}=${goFormat(value)})`;
}
