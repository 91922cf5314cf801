/**
 * Go's json.Decoder.Decode reads the FIRST JSON value of a stream and ignores what follows it. A stream that
 * ends inside the first value is `unexpected EOF` (which Argo's client treats as transient); an empty body
 * is `EOF` (not transient); other syntax errors are `invalid character ...`.
 */
export class GoDecodeError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export function decodeFirstJsonValue(text: string): unknown {
  let i = 0;
  while (i < text.length && /\s/.test(text[i])) i++;
  if (i === text.length) throw new GoDecodeError('EOF', false);
  const start = i;
  const end = scanValueEnd(text, i);
  if (end < 0) throw new GoDecodeError('unexpected EOF', true);
  try {
    return JSON.parse(text.slice(start, end));
  } catch (err) {
    throw new GoDecodeError(`invalid character in JSON: ${(err as Error).message}`, false);
  }
}

/** Index just past the first complete JSON value starting at `i`, or -1 if the text ends inside it. */
function scanValueEnd(text: string, i: number): number {
  const first = text[i];
  if (first === '{' || first === '[') {
    let depth = 0;
    let inString = false;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (inString) {
        if (c === '\\') j++;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  if (first === '"') {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j + 1;
    }
    return -1;
  }
  // literal: number, true, false, null — ends at a delimiter
  let j = i;
  while (j < text.length && !/[\s,\]}]/.test(text[j])) j++;
  return j;
}
