/**
 * Argo's AnyString: JSON strings, numbers and booleans are accepted and kept as text (`1.5` → "1.5",
 * `true` → "true"); objects and arrays decode to "" without an error; null and absent stay absent.
 */
export function toAnyString(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    case 'object':
      return value === null ? undefined : '';
    default:
      return undefined;
  }
}
