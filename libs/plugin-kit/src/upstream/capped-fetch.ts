import { JsonCostMeter } from '../json/json-cost-meter.js';
import { ReplyTooLargeError, replyCostLimits, upstreamScope, type UpstreamScope } from './upstream-scope.js';

/**
 * A fetch Response whose body can be read only within the upstream scope's bounds: a declared Content-Length
 * above `maxBodyBytes` is refused before anything is read; a body that grows past it, or whose JSON would
 * build more values or nesting than the scope allows (counted as the bytes pass, before any parse), errors
 * with ReplyTooLargeError as soon as it does, and is cancelled. For SDKs that read replies through fetch.
 */
export function capResponseBody(
  response: Response,
  scope: Pick<UpstreamScope, 'maxBodyBytes' | 'maxValues'> = upstreamScope(),
): Response {
  const maxBytes = scope.maxBodyBytes;
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw ReplyTooLargeError.bytes(maxBytes);
  }
  if (!response.body) return response;
  const limits = replyCostLimits(scope);
  const meter = new JsonCostMeter(limits);
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) return controller.error(ReplyTooLargeError.bytes(maxBytes));
        const excess = meter.feed(chunk);
        if (excess) return controller.error(ReplyTooLargeError.cost(excess, limits));
        controller.enqueue(chunk);
      },
    }),
  );
  const capped = new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(capped, 'url', { value: response.url });
  return capped;
}
