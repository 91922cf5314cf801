/**
 * Canonical JSON: object keys sorted, no whitespace. Argo passes the plugin body through the API server as
 * unstructured data, so key order is not stable between calls; the execution key must not depend on it.
 * Iterative, so hostile nesting cannot overflow the stack; throws past `maxDepth`.
 */
export function canonicalJson(value: unknown, maxDepth = 256): string {
  type Frame = { kind: 'value'; value: unknown; depth: number } | { kind: 'text'; text: string };
  const out: string[] = [];
  const stack: Frame[] = [{ kind: 'value', value, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.kind === 'text') {
      out.push(frame.text);
      continue;
    }
    const v = frame.value;
    if (frame.depth > maxDepth) throw new RangeError(`nesting deeper than ${maxDepth} levels`);
    if (v === null || typeof v !== 'object') {
      out.push(v === undefined ? 'null' : JSON.stringify(v));
      continue;
    }
    const pushes: Frame[] = [];
    if (Array.isArray(v)) {
      pushes.push({ kind: 'text', text: '[' });
      v.forEach((item, i) => {
        if (i > 0) pushes.push({ kind: 'text', text: ',' });
        pushes.push({ kind: 'value', value: item, depth: frame.depth + 1 });
      });
      pushes.push({ kind: 'text', text: ']' });
    } else {
      const keys = Object.keys(v).sort();
      pushes.push({ kind: 'text', text: '{' });
      keys.forEach((k, i) => {
        pushes.push({ kind: 'text', text: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` });
        pushes.push({ kind: 'value', value: (v as Record<string, unknown>)[k], depth: frame.depth + 1 });
      });
      pushes.push({ kind: 'text', text: '}' });
    }
    for (let i = pushes.length - 1; i >= 0; i--) stack.push(pushes[i]);
  }
  return out.join('');
}

/** Deepest plugin body accepted; real bodies are a few levels deep, hostile ones thousands. */
export const MAX_BODY_DEPTH = 32;

/** Depth of the deepest array/object in `value` (0 for a scalar), computed iteratively. */
export function nestingDepth(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const d = depth + 1;
    if (d > max) max = d;
    if (max > stopAt) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d]);
  }
  return max;
}
