import type { IncomingMessage } from 'node:http';
import { JsonCostMeter, type JsonCostLimits } from '../json/json-cost-meter.js';
import type { BodyShare } from './body-budget.js';

/** What a request body may cost: bytes on the wire, and what JSON.parse would build from them. */
export interface BodyLimits extends JsonCostLimits {
  maxBytes: number;
}

/** A body past one of its limits: the front answers 413 with this message. */
export class BodyTooLargeError extends Error {}

/** The bodies in flight already cost what the front holds at once: the front answers 503 + Retry-After. */
export class BodyBudgetSpentError extends Error {
  constructor() {
    super('busy: the request bodies in flight hold all the memory the front gives them; retry');
  }
}

/**
 * Reads the request body up to `limits.maxBytes`, counting its JSON values and nesting as each chunk arrives
 * (before anything is parsed) and taking what it costs from `share`; rejects as soon as a limit is passed or
 * the share cannot grow, and the rest is never read.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits, share: BodyShare): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return Promise.reject(tooManyBytes(limits));
  const meter = new JsonCostMeter(limits);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (err: Error): void => {
      cleanup();
      req.pause();
      chunks.length = 0;
      reject(err);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limits.maxBytes) return stop(tooManyBytes(limits));
      const before = meter.values;
      const excess = meter.feed(chunk);
      if (excess === 'values')
        return stop(
          new BodyTooLargeError(
            `request body holds more than ${limits.maxValues} JSON values and keys (BODY_MAX_VALUES)`,
          ),
        );
      if (excess === 'depth')
        return stop(new BodyTooLargeError(`request body nested deeper than ${limits.maxDepth} levels`));
      if (!share.grow(chunk.length, meter.values - before)) return stop(new BodyBudgetSpentError());
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onAborted = (): void => onError(new Error('request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

function tooManyBytes(limits: BodyLimits): BodyTooLargeError {
  return new BodyTooLargeError(`request body larger than ${limits.maxBytes} bytes`);
}
