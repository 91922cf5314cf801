import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default async function globalTeardown(): Promise<void> {
  if (process.env.ARGO_KEEP_STACK === '1') return;
  for (const [variable, owner] of [
    ['ARGO_STACK_DIR', 'ARGO_SUITE_OWNS_STACK'],
    ['ARGO_SHARED_STACK_DIR', 'ARGO_SUITE_OWNS_SHARED_STACK'],
  ])
    if (process.env[owner] === '1')
      execFileSync('node', ['tools/run-cli.mjs', 'argo', 'down', '--dir', process.env[variable]!], {
        cwd: resolve(import.meta.dirname, '../../..'),
        stdio: ['ignore', 'ignore', 'inherit'],
      });
}
