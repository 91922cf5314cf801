// npm run demo: its first line says that every upstream is a local stand-in, its last screen is the table of
// what ran (one row per workflow, its plugin and provider, its phase per pass) and nothing comes after it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../../..');

describe('npm run demo -- --only event-emitter', () => {
  it('opens with the stand-ins line and ends with the summary table', () => {
    const r = spawnSync(
      process.execPath,
      [join(root, 'tools/run-cli.mjs'), 'demo', '--only', 'event-emitter'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 0 });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^Every upstream below .* is a local stand-in on 127\.0\.0\.1: nothing leaves this machine/,
    );
    const last = lines.slice(lines.lastIndexOf('Summary: what ran, against local stand-ins only') + 1);
    expect(last).toEqual([
      expect.stringMatching(/^ {2}WORKFLOW +PLUGIN: PROVIDER +SINGLE PLUGINS$/),
      expect.stringMatching(/^✔ event-emitter\/emit-build-finished\.yaml +workflow-event +Succeeded$/),
      expect.stringMatching(/^✔ deploy-shop-api-[0-9a-f]+ +binding deploy-on-build-finished +Succeeded$/),
      '2 workflows, 0 not as expected (requeues scaled by 0.05)',
    ]);
  });
});
