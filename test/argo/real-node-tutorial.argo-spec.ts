// The tutorial of docs/write-a-plugin.md on the real node: its walk (the ```sh tutorial and ```diff tutorial
// blocks before the real-stack step) in a copy of the repository, then the commands of its ```sh tutorial-stack
// block, as one shell script (its `eval` of the stack's env carries over), all read from the page itself
// (test/support/tutorial-steps.ts). The stack is this suite's (ARGO_STACK_DIR, a real node): the page's
// `npm run argo -- up --node real` finds it up and builds and imports the copy's images, the walked plugin's
// among them; `argo logs` follows the plugin's container; the suite's teardown takes the stack down.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { runIn, scratchRepo } from '../../tools/cli/test/scratch-repo.js';
import { tutorialSteps, type TutorialStep } from '../support/tutorial-steps.js';
import { kubectlAsync, stack } from './support/cluster.js';

const steps = tutorialSteps(join(import.meta.dirname, '../..'));
const firstStack = steps.findIndex((s) => s.stage === 'stack');
const walk = steps.slice(0, firstStack).filter((s) => s.stage === 'walk');
const onStack = steps.filter(
  (s): s is Extract<TutorialStep, { run: string }> => s.stage === 'stack' && 'run' in s,
);
/** The plugin the walk installs: the one of the page's `kubectl apply -n <ns> -k manifests/<name>`. */
const installed = onStack.map((s) => /apply -n (\S+) -k manifests\/([a-z0-9-]+)$/.exec(s.run)).find(Boolean);

function perform(repo: string, step: TutorialStep): { status: number | null; out: string } {
  if ('run' in step) return runIn(repo, step.run, { timeoutMs: 600_000 });
  const dir = mkdtempSync(join(tmpdir(), 'tutorial-patch-'));
  writeFileSync(join(dir, 'step.diff'), step.patch);
  try {
    return runIn(repo, `git apply ${join(dir, 'step.diff')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the tutorial (docs/write-a-plugin.md) on the real node', () => {
  let state: StackState;
  let repo: string;

  beforeAll(() => {
    state = stack();
    repo = scratchRepo('tutorial-stack-');
  });
  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
  });

  it('the page installs a plugin of its walk and submits its example', () => {
    expect(firstStack).toBeGreaterThan(0);
    expect(installed).toBeTruthy();
    expect(onStack.map((s) => s.run)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^npm run argo -- up --node real$/),
        expect.stringMatching(/ logs .* --follow$/),
        expect.stringMatching(/ submit /),
      ]),
    );
  });

  it('walks the page, installs the plugin with kubectl apply -k and runs its example to Succeeded', async () => {
    for (const step of walk) {
      const r = perform(repo, step);
      const what = 'run' in step ? step.run : `the patch at ${step.where}`;
      expect({ step: what, status: r.status, out: r.status === 0 ? '' : r.out }).toEqual({
        step: what,
        status: 0,
        out: '',
      });
    }
    expect(state.realNode).toBeDefined();
    const [, namespace] = installed!;
    // A namespace left by an earlier run against the same stack: the page creates it.
    await kubectlAsync(state, ['delete', 'namespace', namespace, '--ignore-not-found', '--wait=true']);

    const script = ['set -e', ...onStack.map((s) => s.run)].join('\n');
    const r = runIn(repo, script, { timeoutMs: 900_000, env: { ARGO_STACK_DIR: state.dir } });
    expect({ status: r.status, out: r.status === 0 ? '' : r.out }).toEqual({ status: 0, out: '' });
    // argo get: the workflow and both calls Succeeded, with the plugin's message.
    expect(r.out).toMatch(/^Status:\s+Succeeded$/m);
    expect(r.out).toMatch(/first\s.*reversed 13 characters/);
    expect(r.out).toMatch(/again\s.*reversed 13 characters/);
    // The plugin's own log, followed by argo logs from the agent pod's container: its call of each step.
    expect(r.out).toMatch(/-agent: \{.*"plugin":"reverse".*"msg":"template.execute"/);
  });
});
