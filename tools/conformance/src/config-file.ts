import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/**
 * Whether a `--config` value is the body itself rather than a file: not an existing path, and written as JSON
 * or YAML (`{...}`, `[...]`, a `key: value` pair or several lines). Anything else is a file name.
 */
export function isInlineConfig(value: string): boolean {
  return !existsSync(value) && (/^\s*[[{]/.test(value) || /\n|:\s/.test(value));
}

/**
 * Reads the example plugin body, from JSON or YAML, given inline or as a file. Either the body itself
 * (`{text: hi}`) or the template's `plugin` map with just this key (`{slack: {text: hi}}`) is accepted.
 */
export function loadConfig(value: string, key: string): unknown {
  const inline = isInlineConfig(value);
  const where = inline ? '--config (inline)' : `--config ${value}`;
  let text: string;
  try {
    text = inline ? value : readFileSync(value, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`${where}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`, {
      cause: err,
    });
  }
  let parsed: unknown;
  try {
    parsed = !inline && /\.json$/i.test(value) ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const keys = Object.keys(parsed);
    if (keys.length === 1 && keys[0] === key) return (parsed as Record<string, unknown>)[key];
  }
  if (parsed === undefined || parsed === null) throw new Error(`${where}: empty`);
  return parsed;
}
