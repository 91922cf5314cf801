import { readFileSync } from 'node:fs';
import { report, size } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { failures, runSequence } from './support/sequence-workflow.js';
import { describeEffects, launchBehindProxy, sideEffects } from './support/side-effects.js';
import { coverageLine, discoverApps, type PluginTarget } from './support/targets.js';

/**
 * SIGKILL in the middle of running builds/jobs/posts, and a new process on the same port with an empty memory
 * (the sidecar container restarting). The agent retries the refused connections with Argo's real backoff
 * (1, 2, 4, 8 s). Every plugin here documents that it finds its run again after a restart (docs/<app>.md,
 * "what survives a restart") within a look-back window (Jenkins: the job's last 50 builds, dbt Cloud: the
 * job's 20 most recent runs, Slack: the channel's last 200 messages): NODES stays inside every window, so
 * exactly one side effect per node must hold. Soak mode kills more often.
 */
const NODES = 16;
const KILLS = size(1, 3);

const apps = discoverApps();
const counted = apps.targets.filter((t) => t.countUrl && t.countUpstreamEnv);
const skipped = [
  ...apps.skipped,
  ...apps.targets.filter((t) => !counted.includes(t)).map((t) => `${t.name} (no countUrl)`),
];
const sweep = new SecretSweep();
const lines: string[] = [];
let lost = 0;
let duplicated = 0;

/** The heading of the doc's restart section, so the report says which promise was checked. */
function restartPromise(target: PluginTarget): string {
  if (!target.doc) return 'no docs';
  const heading = readFileSync(target.doc, 'utf8')
    .split('\n')
    .find((l) => /^#+ .*restart/i.test(l));
  return heading
    ? `docs/${target.name}.md "${heading.replace(/^#+ /, '')}"`
    : 'docs say nothing about restarts';
}

describe('restart: SIGKILL mid-run, same port, empty memory; still one side effect per node', () => {
  afterAll(() => {
    report(coverageLine('restart', { targets: counted, skipped }));
    report(
      `restart: ${counted.length} plugins × ${NODES} running nodes × ${KILLS} SIGKILL + restart, ${lost} lost, ${duplicated} duplicated; secrets: ${sweep.summary()}`,
    );
    lines.forEach((l) => report(`  ${l}`));
    expect(sweep.check()).toEqual([]);
  });

  it.each(counted.map((t) => t.name))(
    '%s',
    async (name) => {
      const target = counted.find((t) => t.name === name)!;
      // A proxy without faults: it tells a new side effect from a repeated trigger the upstream merged (303).
      const proxied = await launchBehindProxy(target, { seed: 0, rate: 0, faults: [] }, { sweep });
      const { run, proxy } = proxied;
      const kills: Array<{ at: string; restartMs: number }> = [];
      try {
        const before = (await run.count())!;
        let finished = 0;
        let requeues = 0;
        let restarting: Promise<void> | undefined;
        // Kill when a share of the nodes has moved on: after some requeues (long runs) or some finished nodes.
        const due = (): boolean =>
          kills.length < KILLS &&
          (requeues >= (NODES * (kills.length + 1)) / 2 ||
            finished >= (NODES * (kills.length + 1)) / (KILLS + 1));
        const outcome = await runSequence(run, NODES, {
          name: 'restart',
          onEvent: (event) => {
            if (event.node.type !== 'Plugin') return;
            if (event.kind === 'requeue') requeues++;
            if (event.kind === 'finished') finished++;
            if (restarting || !due()) return;
            const started = performance.now();
            const at = `${finished} finished, ${requeues} requeues`;
            restarting = run
              .killAndRestart()
              .then(() => void kills.push({ at, restartMs: Math.round(performance.now() - started) }))
              .finally(() => (restarting = undefined));
          },
        });
        await restarting;
        const measured = await sideEffects(proxied, before);
        const { effects } = measured;
        sweep.collect(`${name} restart nodes`, JSON.stringify(outcome.result.nodes));
        lost += Math.max(0, NODES - effects) + (NODES - (outcome.phases.Succeeded ?? 0));
        duplicated += Math.max(0, effects - NODES);
        lines.push(
          `${name} (${restartPromise(target)}): killed at ${kills.map((k) => `${k.at} (back in ${k.restartMs} ms)`).join(', ')}; ` +
            `${outcome.calls} calls in ${(outcome.ms / 1000).toFixed(1)} s, ${outcome.phases.Succeeded ?? 0} Succeeded, ${describeEffects(measured)}`,
        );
        expect(kills.length).toBe(KILLS);
        expect({ crashes: run.crashes, phases: outcome.phases, failures: failures(outcome) }).toEqual({
          crashes: [],
          phases: { Succeeded: NODES },
          failures: [],
        });
        expect(effects).toBe(NODES);
      } finally {
        await run.close();
        await proxy.close();
      }
    },
    size(120_000, 600_000),
  );
});
