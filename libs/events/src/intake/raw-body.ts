import type { IncomingMessage } from 'node:http';

/** Thrown when a body is larger than the limit; the rest of it is not read. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/**
 * Reads the whole raw body (Nest's body parser is off, so the bytes are exactly what the client sent). A
 * Content-Length over the limit is refused before a byte is read; a body that grows past it stops being read
 * (the stream is paused, not destroyed, so a reply can still be written; the caller closes the connection).
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (): void => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > limit) {
        settle();
        req.pause();
        chunks.length = 0;
        reject(new BodyTooLarge(limit));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = (): void => {
      settle();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      settle();
      reject(err);
    };
    const onClose = (): void => {
      settle();
      reject(new Error('the client closed the connection before the body was complete'));
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
