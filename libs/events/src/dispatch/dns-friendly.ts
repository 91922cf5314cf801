/**
 * Argo's dnsFriendly for creator labels: every character outside `[-_.a-zA-Z0-9]` becomes `-`, the LAST 63
 * characters are kept, and non-alphanumerics are trimmed at both ends.
 */
export function dnsFriendly(value: string): string {
  const replaced = value.replace(/[^-_.a-zA-Z0-9]/g, '-');
  return replaced
    .slice(-63)
    .replace(/^[^a-zA-Z0-9]+/, '')
    .replace(/[^a-zA-Z0-9]+$/, '');
}
