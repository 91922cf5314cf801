/** One line, at most `max` characters: for evidence in tables, JSON and JUnit. */
export function excerpt(text: string | undefined, max = 160): string {
  if (text === undefined) return '';
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return '(empty)';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
