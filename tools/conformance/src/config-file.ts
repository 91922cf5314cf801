import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/**
 * Reads the example plugin body from JSON or YAML. Either the body itself (`{text: hi}`) or the template's
 * `plugin` map with just this key (`{slack: {text: hi}}`) is accepted.
 */
export function loadConfig(path: string, key: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`--config ${path}: ${(err as Error).message}`, { cause: err });
  }
  let value: unknown;
  try {
    value = /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new Error(`--config ${path}: ${(err as Error).message}`, { cause: err });
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === key) return (value as Record<string, unknown>)[key];
  }
  if (value === undefined || value === null) throw new Error(`--config ${path}: empty`);
  return value;
}
