// Shared constants of the Go time emulation.
import { GoInt, GoLocation } from '../values.js';
import type { ExprValue } from '../values.js';

export const NS = 1_000_000_000n;
export const SECONDS_PER_DAY = 86_400;

export const UTC = new GoLocation('UTC', 0);
/** Argo's server runs with TZ unset: Go's Local is UTC under the name "Local". */
export const LOCAL = new GoLocation('Local', 0);

export const MONTHS =
  'January February March April May June July August September October November December'.split(' ');
export const DAYS = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ');

let clock = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** time.Now() as Unix nanoseconds: expr's now() and sprig's date functions read it. */
export const nowUnixNano = (): bigint => clock();

/** Runs `body` with another clock, restored afterwards (tests fix the time or see whether it was read). */
export function withClock<T>(replacement: () => bigint, body: () => T): T {
  const previous = clock;
  clock = replacement;
  try {
    return body();
  } finally {
    clock = previous;
  }
}

export const duration = (ns: bigint): GoInt => new GoInt('time.Duration', BigInt.asIntN(64, ns));
export const isDuration = (v: ExprValue): v is GoInt => v instanceof GoInt && v.type === 'time.Duration';

/** Go's time-package quoting in error messages. */
export function goQuoteTime(s: string): string {
  return `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
