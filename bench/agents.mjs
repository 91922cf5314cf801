#!/usr/bin/env node
// npm run bench:agents: bundles bench/agents (TypeScript) and runs it: Argo's agent pod per workflow against the
// shared agent on real Argo stacks (docs/performance.md, "Agent pods and the shared agent").
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkoutBundleOptions } from '../tools/build.mjs';

const root = resolve(import.meta.dirname, '..');
const work = join(root, 'bench/.work');
mkdirSync(work, { recursive: true });
await build({
  ...checkoutBundleOptions(root),
  entryPoints: [join(root, 'bench/agents/main.ts')],
  // Three levels under the root, as bench/agents/main.ts and the suites' support it imports are: their
  // import.meta.dirname-relative paths to the root hold in the bundle too.
  outfile: join(work, 'agents/main.mjs'),
});
const { runAgentsBench } = await import(pathToFileURL(join(work, 'agents/main.mjs')).href);
try {
  process.exit((await runAgentsBench(process.argv.slice(2))) ?? 0);
} catch (err) {
  console.error(`bench:agents: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
