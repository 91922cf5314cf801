import { UpstreamError } from '@app/plugin-kit';

type FieldKind = 'string' | 'number';
type FieldValues<F extends Record<string, FieldKind>> = {
  [K in keyof F]: F[K] extends 'number' ? number : string;
};

/**
 * The fields of an upstream's reply the plugin relies on (the id of what it sent, a token and its lifetime),
 * each of its type and not empty; else an UpstreamError (the node Fails) naming the upstream and the request.
 * A reply without them — `{}`, a proxy's page, another API at that address — never turns into a success with
 * `undefined` in its message and outputs.
 */
export function replyFields<F extends Record<string, FieldKind>>(
  upstream: string,
  request: string,
  reply: unknown,
  fields: F,
): FieldValues<F> {
  const data = typeof reply === 'object' && reply !== null ? (reply as Record<string, unknown>) : {};
  const missing = Object.entries(fields)
    .filter(([name, kind]) =>
      kind === 'number'
        ? typeof data[name] !== 'number' || !Number.isFinite(data[name])
        : typeof data[name] !== 'string' || data[name] === '',
    )
    .map(([name]) => name);
  if (missing.length > 0)
    throw UpstreamError.permanent(`${upstream}: ${request}: no ${missing.join(', ')} in the reply`);
  return data as FieldValues<F>;
}
