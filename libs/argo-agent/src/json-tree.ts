/**
 * A JSON value as written: object members in order with duplicates kept, numbers as their literal text.
 * Go decodes every member in turn into the same target, so duplicates and literal number text matter.
 */
export type JsonTree =
  | { kind: 'object'; members: Array<[string, JsonTree]> }
  | { kind: 'array'; items: JsonTree[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' };

/** Parses text that is already known to be one valid JSON value (FirstValueReader checked it). */
export function parseJsonTree(text: string): JsonTree {
  let i = 0;
  const space = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    // Go replaces unpaired surrogates from \u escapes with U+FFFD, as it does invalid UTF-8.
    return wellFormed(JSON.parse(text.slice(start, i)) as string);
  };
  const value = (): JsonTree => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      const members: Array<[string, JsonTree]> = [];
      space();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', members };
      }
      for (;;) {
        space();
        const key = string();
        space();
        i++; // ':'
        members.push([key, value()]);
        space();
        if (text[i++] === '}') return { kind: 'object', members };
      }
    }
    if (c === '[') {
      i++;
      const items: JsonTree[] = [];
      space();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', items };
      }
      for (;;) {
        items.push(value());
        space();
        if (text[i++] === ']') return { kind: 'array', items };
      }
    }
    if (c === '"') return { kind: 'string', value: string() };
    for (const [word, tree] of [
      ['true', { kind: 'bool', value: true }],
      ['false', { kind: 'bool', value: false }],
      ['null', { kind: 'null' }],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return tree;
      }
    }
    const start = i;
    while (i < text.length && '-+.eE0123456789'.includes(text[i]!)) i++;
    return { kind: 'number', text: text.slice(start, i) };
  };
  return value();
}

/** The tree as a plain JS value (the last duplicate key wins, numbers become doubles). */
export function plainValue(tree: JsonTree): unknown {
  switch (tree.kind) {
    case 'object':
      return Object.fromEntries(tree.members.map(([k, v]) => [k, plainValue(v)]));
    case 'array':
      return tree.items.map(plainValue);
    case 'number':
      return Number(tree.text);
    case 'null':
      return null;
    default:
      return tree.value;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, '\uFFFD');
}
