import type { IncomingMessage } from 'node:http';

/** Thrown when a body is larger than the limit; the rest of it is not read. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/** Reads the whole raw body (Nest's body parser is off, so the bytes are exactly what the client sent). */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
