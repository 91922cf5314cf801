/**
 * Reads an upstream side-effect counter: any URL answering `{"count": N}` (the stand-ins'
 * `GET /__stand-in/count?method=&path=`) or a bare number; `authorization` is sent as that header (the local
 * event endpoint's counter wants a valid token).
 */
export async function readCount(url: string, authorization?: string, timeoutMs = 5000): Promise<number> {
  let res: Response;
  try {
    res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      ...(authorization !== undefined && { headers: { Authorization: authorization } }),
    });
  } catch (err) {
    throw new Error(`--count-url ${url}: ${(err as Error).message}`, { cause: err });
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`--count-url ${url}: HTTP ${res.status}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`--count-url ${url}: not JSON: ${text.slice(0, 80)}`);
  }
  const count = typeof value === 'object' && value !== null ? (value as { count?: unknown }).count : value;
  if (typeof count !== 'number' || !Number.isFinite(count)) {
    throw new Error(`--count-url ${url}: expected {"count": <number>} or a number, got ${text.slice(0, 80)}`);
  }
  return count;
}
