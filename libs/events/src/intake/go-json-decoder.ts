// Go's json.NewDecoder(body).Decode(&payload): reads the FIRST JSON value and ignores what follows it.
// Syntax errors carry encoding/json's scanner messages, which the Argo Server returns in its 400 reply.
// The scanner is the local agent's (the same Go decoder reads plugin replies there).
import { FirstValueReader, GoDecodeError } from '@app/argo-agent/json-decode.js';

/** A decode failure with Go's message (`invalid character '!' looking for beginning of value`, `unexpected EOF`). */
export class GoJsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoJsonSyntaxError';
  }
}

/**
 * Decodes the first JSON value of `body`. Returns `undefined` for an empty (or all-whitespace) body, which
 * Argo treats like `null`: a nil payload. Bytes after the first value are ignored.
 */
export function decodeFirstJsonValue(body: Buffer): unknown {
  const reader = new FirstValueReader();
  try {
    if (!reader.push(body)) reader.end();
  } catch (err) {
    if (!(err instanceof GoDecodeError)) throw err;
    if (err.message === 'EOF') return undefined;
    throw new GoJsonSyntaxError(err.message);
  }
  return JSON.parse(reader.value().toString('utf8')) as unknown;
}
