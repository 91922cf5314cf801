// Starts the run's two real Argo stacks side by side (or uses those ARGO_STACK_DIR and ARGO_SHARED_STACK_DIR
// name, when they are up already): one with Argo's agent pod per workflow, one with disableAgentPodCreation
// and the shared agent. A variable set to `none` leaves its stack out (for a run of suites that need only the
// other one).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export default async function globalSetup(): Promise<void> {
  const root = resolve(import.meta.dirname, '../../..');
  const stacks = [
    { variable: 'ARGO_STACK_DIR', owner: 'ARGO_SUITE_OWNS_STACK', args: [] as string[] },
    { variable: 'ARGO_SHARED_STACK_DIR', owner: 'ARGO_SUITE_OWNS_SHARED_STACK', args: ['--agent', 'shared'] },
  ];
  for (const { variable, owner, args } of stacks) {
    if (process.env[variable] === 'none') continue;
    if (!process.env[variable]) {
      process.env[variable] = join(mkdtempSync(join(tmpdir(), 'argo-suite-')), 'stack');
      process.env[owner] = '1';
    }
    execFileSync('node', ['tools/run-cli.mjs', 'argo', 'up', '--dir', process.env[variable]!, ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}
