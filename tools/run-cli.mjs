#!/usr/bin/env node
// Runs a CLI from tools/cli/<name>.ts: bundles the tools (esbuild + swc, about a second) when a source is newer
// than the bundle, then hands over. Lets `npm run agent` & co. work on a fresh clone without a build step.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const [name, ...rest] = process.argv.slice(2);
if (!name) {
  console.error('usage: node tools/run-cli.mjs <cli> [args...]');
  process.exit(2);
}
const clis = readdirSync(join(root, 'tools/cli'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => f.slice(0, -'.ts'.length));
if (!clis.includes(name)) {
  console.error(`no CLI named ${name}; there are: ${clis.join(', ')}`);
  process.exit(2);
}
const bundle = join(root, 'dist/tools', `${name}.mjs`);

function newestSource(dirs) {
  let newest = 0;
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  dirs.forEach((d) => walk(join(root, d)));
  return newest;
}

if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestSource(['tools', 'libs', 'apps'])) {
  const { buildTools } = await import('./build.mjs');
  await buildTools();
}
process.argv = [process.argv[0], bundle, ...rest];
await import(pathToFileURL(bundle).href);
