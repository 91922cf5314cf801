import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default async function globalTeardown(): Promise<void> {
  if (process.env.ARGO_SUITE_OWNS_STACK !== '1' || process.env.ARGO_KEEP_STACK === '1') return;
  execFileSync('node', ['tools/run-cli.mjs', 'argo', 'down', '--dir', process.env.ARGO_STACK_DIR!], {
    cwd: resolve(import.meta.dirname, '../../..'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
