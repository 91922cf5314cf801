/** Google's error body (google.rpc.Status as JSON): `{error: {code, message, status}}`, as `message (STATUS)`. */
export function describeGoogleError(data: unknown): string | undefined {
  const e = (data as { error?: { message?: unknown; status?: unknown } } | undefined)?.error;
  if (typeof e?.message !== 'string') return undefined;
  return typeof e.status === 'string' ? `${e.message} (${e.status})` : e.message;
}
