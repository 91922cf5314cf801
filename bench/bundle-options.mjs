// How the benchmarks bundle their TypeScript (bench/src, bench/agents): ESM for Node, packages left to
// node_modules, the repo's tsconfig paths and decorators (swc).
import { join } from 'node:path';
import { swcTypeScript } from '../tools/build.mjs';

export function benchBundleOptions(root) {
  return {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.json'),
    plugins: [swcTypeScript],
    sourcemap: 'inline',
    logLevel: 'warning',
  };
}
