// Headers → the event's `metadata`, exactly as grpc-gateway v1.16 (annotateContext) and Argo's metaData() do.
import { GrpcCode, GrpcError } from './grpc-status.js';

/** Argo's IncomingHeaderMatcher forwards every header except these (HTTP/1 hop-by-hop headers). */
const NOT_FORWARDED = new Set([
  'content-length',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

export interface HeaderSource {
  /** Node's `rawHeaders`: name, value, name, value... in the order received, duplicates kept. */
  rawHeaders: readonly string[];
  /** The peer's IP address (no port). */
  remoteAddress?: string;
}

/**
 * 1. every forwarded header becomes one metadata pair per value, with the key lower-cased (so a header sent
 *    twice is a two-element list, and `X-A: a, b` stays one value);
 * 2. `x-forwarded-host` (the client's X-Forwarded-Host, else Host) and `x-forwarded-for` (the peer IP, after
 *    the client's X-Forwarded-For if any) are appended;
 * 3. only keys starting with `x-` are kept.
 * Values that are not printable ASCII fail like grpc-go's metadata validation (500); `-bin` headers are
 * base64-decoded as the gateway does.
 */
export function headerMetadata(source: HeaderSource): Record<string, string[]> {
  const pairs: Array<[string, string]> = [];
  let host: string | undefined;
  let clientForwardedHost: string | undefined;
  let clientForwardedFor: string | undefined;
  const raw = source.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i]!.toLowerCase();
    let value = raw[i + 1]!;
    if (key === 'host') {
      host ??= value;
      continue;
    }
    if (key === 'x-forwarded-host') clientForwardedHost ??= value;
    if (key === 'x-forwarded-for') clientForwardedFor ??= value;
    if (NOT_FORWARDED.has(key)) continue;
    if (key.endsWith('-bin')) value = decodeBinHeader(key, value);
    else checkPrintable(key, value);
    pairs.push([key, value]);
  }
  const forwardedHost = clientForwardedHost || host;
  if (forwardedHost) pairs.push(['x-forwarded-host', forwardedHost]);
  if (source.remoteAddress) {
    const ip = source.remoteAddress.replace(/^::ffff:/, '');
    pairs.push(['x-forwarded-for', clientForwardedFor ? `${clientForwardedFor}, ${ip}` : ip]);
  }
  const metadata: Record<string, string[]> = {};
  for (const [key, value] of pairs) if (key.startsWith('x-')) (metadata[key] ??= []).push(value);
  return metadata;
}

function checkPrintable(key: string, value: string): void {
  if (/[^\x20-\x7e]/.test(value))
    throw new GrpcError(
      GrpcCode.Internal,
      `header key "${key}" contains value with non-printable ASCII characters`,
    );
}

/** grpc-gateway's decodeBinHeader: padded standard base64, or unpadded when the length says so. */
function decodeBinHeader(key: string, value: string): string {
  const padded = value.length % 4 === 0;
  const valid = padded ? /^[A-Za-z0-9+/]*={0,2}$/ : /^[A-Za-z0-9+/]*$/;
  if (!valid.test(value) || (!padded && value.length % 4 === 1))
    throw new GrpcError(GrpcCode.InvalidArgument, `illegal base64 data in header ${key}`);
  return Buffer.from(value, 'base64').toString('utf8');
}
