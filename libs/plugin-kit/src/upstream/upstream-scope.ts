import { AsyncLocalStorage } from 'node:async_hooks';
import type { Redactor } from '../logging/redactor.js';

/** Largest upstream reply body read when nothing else is configured (UPSTREAM_MAX_BODY). */
export const DEFAULT_UPSTREAM_MAX_BODY = 4 * 1024 * 1024;

/**
 * What every upstream request of one plugin obeys: the largest reply body it reads, and the redactor that
 * learns the credentials it sends. The TemplateExecutor runs each handler inside its plugin's scope, so the
 * kit's clients (axios, the capped fetch) find the bounds of the plugin they work for — several plugins in
 * one process each keep their own — without every provider passing them along.
 */
export interface UpstreamScope {
  maxBodyBytes: number;
  redactor?: Redactor;
}

const storage = new AsyncLocalStorage<UpstreamScope>();

export function runInUpstreamScope<T>(scope: UpstreamScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the execution this code runs for; outside any (unit tests, start-up) the defaults. */
export function upstreamScope(): UpstreamScope {
  return storage.getStore() ?? { maxBodyBytes: DEFAULT_UPSTREAM_MAX_BODY };
}

/** Masks the current scope's secrets in `text` (untouched outside a scope). */
export function redactInScope(text: string): string {
  return storage.getStore()?.redactor?.redact(text) ?? text;
}

/** An upstream reply larger than the scope allows: never read to the end, the node fails with this message. */
export class ReplyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(
      `reply larger than ${formatBytes(limit)} (the sidecar reads at most UPSTREAM_MAX_BODY bytes of an upstream reply)`,
    );
    this.name = 'ReplyTooLargeError';
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
