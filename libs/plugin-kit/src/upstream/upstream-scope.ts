import { AsyncLocalStorage } from 'node:async_hooks';
import { MAX_JSON_DEPTH, type JsonCostExcess, type JsonCostLimits } from '../json/json-cost-meter.js';
import type { Redactor } from '../logging/redactor.js';

/** Largest upstream reply body read when nothing else is configured (UPSTREAM_MAX_BODY). */
export const DEFAULT_UPSTREAM_MAX_BODY = 4 * 1024 * 1024;

/** Most JSON values and keys built from one upstream reply when nothing else is configured (UPSTREAM_MAX_VALUES). */
export const DEFAULT_UPSTREAM_MAX_VALUES = 100_000;

/**
 * What every upstream request of one plugin obeys: the largest reply body it reads, the most JSON values it
 * builds from one, and the redactor that learns the credentials it sends. The TemplateExecutor runs each handler inside its plugin's scope, so the
 * kit's clients (axios, the capped fetch) find the bounds of the plugin they work for — several plugins in
 * one process each keep their own — without every provider passing them along.
 */
export interface UpstreamScope {
  maxBodyBytes: number;
  /** Most JSON values and keys in one reply (its nesting is bounded by MAX_JSON_DEPTH). */
  maxValues: number;
  redactor?: Redactor;
}

const storage = new AsyncLocalStorage<UpstreamScope>();

export function runInUpstreamScope<T>(scope: UpstreamScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the execution this code runs for; outside any (unit tests, start-up) the defaults. */
export function upstreamScope(): UpstreamScope {
  return (
    storage.getStore() ?? { maxBodyBytes: DEFAULT_UPSTREAM_MAX_BODY, maxValues: DEFAULT_UPSTREAM_MAX_VALUES }
  );
}

/** What the scope lets JSON.parse build from one reply. */
export function replyCostLimits(scope: Pick<UpstreamScope, 'maxValues'> = upstreamScope()): JsonCostLimits {
  return { maxValues: scope.maxValues, maxDepth: MAX_JSON_DEPTH };
}

/** Masks the current scope's secrets in `text` (untouched outside a scope). */
export function redactInScope(text: string): string {
  return storage.getStore()?.redactor?.redact(text) ?? text;
}

/**
 * An upstream reply larger than the scope allows, in bytes or in what parsing it would build: never read to
 * the end or never parsed, the node fails with this message.
 */
export class ReplyTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyTooLargeError';
  }

  static bytes(limit: number): ReplyTooLargeError {
    return new ReplyTooLargeError(
      `reply larger than ${formatBytes(limit)} (the sidecar reads at most UPSTREAM_MAX_BODY bytes of an upstream reply)`,
    );
  }

  static cost(excess: JsonCostExcess, limits: JsonCostLimits): ReplyTooLargeError {
    return new ReplyTooLargeError(
      excess === 'values'
        ? `reply holds more than ${limits.maxValues} JSON values and keys (the sidecar builds at most UPSTREAM_MAX_VALUES values from one upstream reply)`
        : `reply nested deeper than ${limits.maxDepth} levels (the sidecar parses upstream replies up to that depth)`,
    );
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
