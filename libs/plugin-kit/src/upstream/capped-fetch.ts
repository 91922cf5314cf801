import { ReplyTooLargeError, upstreamScope } from './upstream-scope.js';

/**
 * A fetch Response whose body can be read only up to `maxBytes` (default: the upstream scope's limit): a
 * declared Content-Length above it is refused before anything is read, a body that grows past it errors
 * with ReplyTooLargeError as soon as it does, and is cancelled. For SDKs that read replies through fetch.
 */
export function capResponseBody(response: Response, maxBytes = upstreamScope().maxBodyBytes): Response {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw new ReplyTooLargeError(maxBytes);
  }
  if (!response.body) return response;
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new ReplyTooLargeError(maxBytes));
        else controller.enqueue(chunk);
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
