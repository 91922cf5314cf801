#!/usr/bin/env node
// Bundles the conformance CLI into dist/conformance.mjs: one self-contained ES module (yaml and the repo's
// libs inlined, no runtime dependencies) that runs with `node` or as the package's `bin` through npx.
import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
const root = resolve(here, '../..');
export const defaultOutfile = join(here, 'dist/conformance.mjs');

export async function buildConformance({ outfile = defaultOutfile } = {}) {
  await build({
    absWorkingDir: root,
    entryPoints: [join(here, 'src/main.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    tsconfig: join(root, 'tsconfig.json'),
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __confCreateRequire } from 'node:module'; const require = __confCreateRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
  });
  await chmod(outfile, 0o755);
  return outfile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const outfile = await buildConformance();
  console.error(`built ${outfile} in ${(performance.now() - started).toFixed(0)} ms`);
}
