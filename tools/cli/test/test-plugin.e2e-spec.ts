// npm run test:plugin -- <name>: one plugin's unit and e2e tests, the conformance kit against its build and its
// examples through the local agent, each reported, in one command.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../../..');

describe('npm run test:plugin -- event-emitter', () => {
  it("runs the plugin's tests, its conformance and its examples, and says so in its last line", () => {
    const r = spawnSync('npm', ['run', '-s', 'test:plugin', '--', 'event-emitter'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 180_000,
    });
    const out = `${r.stdout}${r.stderr}`;
    expect({ status: r.status }).toEqual({ status: 0 });
    // its own specs and nothing else's, the conformance run for it alone, then its examples
    expect(out).toMatch(/PASS apps\/event-emitter\/test\/emitter\.e2e-spec\.ts/);
    expect(out).toMatch(/PASS apps\/event-emitter\/src\/.*\.spec\.ts/);
    expect(out).not.toMatch(/PASS apps\/(?!event-emitter\/)/);
    expect(out).toContain('conformance covered: event-emitter\n');
    expect(out).toMatch(/✔ event-emitter\/emit-build-finished\.yaml +workflow-event +Succeeded/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^test:plugin event-emitter: unit, e2e and conformance tests, example workflows through the local agent: passed in \d+ s$/,
    );
  });
});
