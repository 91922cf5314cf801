import { appendFileSync } from 'node:fs';

/** Soak mode (`SOAK=1`): bigger sizes, more cases, a fresh random seed (printed). */
export const SOAK = process.env.SOAK === '1';

/** The seed of the random parts of a suite: fixed in npm test (repeatable), fresh in soak mode, or RELIABILITY_SEED. */
export const SEED = Number(process.env.RELIABILITY_SEED ?? (SOAK ? Date.now() % 2 ** 31 : 20_250_607));

/** `n` in npm test, `soak` in soak mode. */
export function size(n: number, soak: number): number {
  return SOAK ? soak : n;
}

/**
 * Prints a suite's summary line (what was tried, what held, with figures); also appended to the file named by
 * RELIABILITY_REPORT, which is how docs/reliability.md gets the figures of a real run.
 */
export function report(line: string): void {
  // Straight to stdout: one line, not Jest's console block (the call site and a blank line around each).
  process.stdout.write(`${line}\n`);
  const file = process.env.RELIABILITY_REPORT;
  if (file) appendFileSync(file, `${line}\n`);
}

export const mb = (n: number): string => `${n.toFixed(0)} MB`;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
