/** Header names whose values are credentials: masked wherever they appear in a logged object. */
const CREDENTIAL_KEY = /^(proxy-)?authorization$/i;

/**
 * The fields of a log line as JSON text to append after `{"level":…,"time":…`: `,"a":1,"b":"x"`, or '' for
 * none. Whatever the object holds, this never throws: errors become `{type, message, stack, …}`, cycles
 * `"[Circular]"`, bigints their digits, and an Authorization header anywhere `"[REDACTED]"` (the value
 * redactor masks every known secret in the whole line as well).
 */
export function jsonFields(fields: object): string {
  const text = safeStringify(fields);
  return text.length > 2 && text.startsWith('{') ? `,${text.slice(1, -1)}` : '';
}

function safeStringify(value: unknown): string {
  // The objects from the root down to the one being serialised: JSON.stringify calls the replacer with the
  // holder as `this`, so the chain is cut back to that holder before each value.
  const ancestors: { original: object; written: object }[] = [];
  try {
    return (
      JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
        if (key !== '' && CREDENTIAL_KEY.test(key)) return '[REDACTED]';
        if (typeof v === 'bigint') return v.toString();
        if (typeof v !== 'object' || v === null) return v;
        while (ancestors.length > 0 && ancestors.at(-1)!.written !== this) ancestors.pop();
        if (ancestors.some((a) => a.original === v)) return '[Circular]';
        const written = v instanceof Error ? errorFields(v) : v;
        ancestors.push({ original: v, written });
        return written;
      }) ?? ''
    );
  } catch (err) {
    // A getter or toJSON that throws: say so rather than lose the line.
    return JSON.stringify({ logError: `fields not serialisable: ${(err as Error).message}` });
  }
}

/** An error as a plain object: its class, message and stack, its own fields (code, status, …) and its cause. */
function errorFields(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { type: err.constructor?.name ?? 'Error', message: err.message };
  if (err.stack) out.stack = err.stack;
  for (const [k, v] of Object.entries(err)) if (!(k in out)) out[k] = v;
  if (err.cause !== undefined && !('cause' in out)) out.cause = err.cause;
  return out;
}
