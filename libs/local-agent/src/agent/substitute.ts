/**
 * `{{...}}` substitution the way the controller does it: on the JSON text of the whole template (plugin
 * body included), with values JSON-string-escaped as they are inserted; tags it cannot resolve stay as
 * they are (Argo leaves unresolved tags literal). `{{=expr}}` expressions are not evaluated here.
 */
export type Variables = Map<string, string>;

const TAG = /\{\{\s*([^{}=][^{}]*?)\s*\}\}/g;

export function substituteText(text: string, vars: Variables, escapeForJson = false): string {
  return text.replace(TAG, (tag, name: string) => {
    const value = vars.get(name);
    if (value === undefined) return tag;
    return escapeForJson ? JSON.stringify(value).slice(1, -1) : value;
  });
}

export function substituteJson<T>(value: T, vars: Variables): T {
  return JSON.parse(substituteText(JSON.stringify(value), vars, true)) as T;
}

/** Tags left in `value` after substitution (for warnings). */
export function unresolvedTags(value: unknown): string[] {
  const text = JSON.stringify(value) ?? '';
  return [...new Set([...text.matchAll(TAG)].map((m) => m[1]))];
}
