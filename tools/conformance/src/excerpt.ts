import { setLongTimeout } from '@app/contract';

/**
 * One line, at most `max` characters, for evidence in tables, JSON and JUnit: secrets are masked in the whole
 * text first, so a cut never leaves part of one and collapsing whitespace never brings one together.
 */
export function excerpt(text: string | undefined, mask: (text: string) => string, max = 160): string {
  if (text === undefined) return '';
  const line = mask(text).replace(/\s+/g, ' ').trim();
  if (line === '') return '(empty)';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

/** Waits `ms`, or less when `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setLongTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (timer.clear(), resolve()), { once: true });
  });
