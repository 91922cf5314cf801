import type { ProxyFault } from './support/fault-proxy.js';
import { report, SEED, size } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { failures, runSequence } from './support/sequence-workflow.js';
import { describeEffects, launchBehindProxy, sideEffects } from './support/side-effects.js';
import { coverageLine, discoverApps } from './support/targets.js';

/**
 * Faults between the plugin and its upstream: a seeded fault proxy in front of the stand-in whose counter
 * conformance.json names answers 500/502/503, 429 with Retry-After, resets connections, hangs, and answers
 * after the call deadline (lowered to 1 s here, so the kit replies Running and finishes in the background).
 * Same assertions as the load suite: every node succeeds, exactly one side effect per node.
 */
const NODES = size(200, 1000);
const RATE = 0.1;
const CALL_DEADLINE_MS = 1000;
/** At 10 % a four-request attempt fails with p ≈ 0.34: 0.34¹¹ ≈ 7·10⁻⁶ per node with the default 10, 0.34²¹ ≈ 10⁻¹⁰ with 20. */
const RETRY_BUDGET = 20;
const FAULTS: ProxyFault[] = [
  { kind: 'status', status: 500 },
  { kind: 'status', status: 502 },
  { kind: 'status', status: 503 },
  { kind: 'rate-limit', retryAfterSeconds: 1 },
  { kind: 'rate-limit', retryAfterSeconds: 3 },
  { kind: 'reset' },
  { kind: 'hang', ms: 3000 },
  { kind: 'slow', ms: CALL_DEADLINE_MS + 500 },
];

const apps = discoverApps();
const counted = apps.targets.filter((t) => t.countUrl && t.countUpstreamEnv);
const skipped = [
  ...apps.skipped,
  ...apps.targets.filter((t) => !counted.includes(t)).map((t) => `${t.name} (no countUrl)`),
  'probe (no upstream)',
];
const sweep = new SecretSweep();
const lines: string[] = [];
const injected = new Map<string, number>();
let lost = 0;
let duplicated = 0;

describe('faults: 5xx, 429, resets, hangs and slow answers upstream; still one side effect per node', () => {
  afterAll(() => {
    report(coverageLine('faults', { targets: counted, skipped }));
    report(
      `faults: ${counted.length} plugins × ${NODES} nodes at ${RATE * 100} % faults (seed ${SEED}; ` +
        `${[...injected].map(([k, n]) => `${k}×${n}`).join(', ')}), ${lost} lost, ${duplicated} duplicated; secrets: ${sweep.summary()}`,
    );
    lines.forEach((l) => report(`  ${l}`));
    expect(sweep.check()).toEqual([]);
  });

  it.each(counted.map((t) => t.name))(
    '%s',
    async (name) => {
      const target = counted.find((t) => t.name === name)!;
      const proxied = await launchBehindProxy(
        target,
        { seed: SEED, rate: RATE, faults: FAULTS },
        { sweep, env: { CALL_DEADLINE: `${CALL_DEADLINE_MS}ms`, RETRY_BUDGET: String(RETRY_BUDGET) } },
      );
      const { run, proxy } = proxied;
      try {
        const before = (await run.count())!;
        const outcome = await runSequence(run, NODES, { name: 'faults' });
        proxy.enabled = false;
        const measured = await sideEffects(proxied, before);
        const { effects } = measured;
        sweep.collect(`${name} fault run nodes`, JSON.stringify(outcome.result.nodes));
        for (const [k, n] of proxy.injected) injected.set(k, (injected.get(k) ?? 0) + n);
        lost += Math.max(0, NODES - effects) + (NODES - (outcome.phases.Succeeded ?? 0));
        duplicated += Math.max(0, effects - NODES);
        lines.push(
          `${name}: ${(outcome.ms / 1000).toFixed(1)} s, ${outcome.calls} calls, ${proxy.requests} upstream requests, ` +
            `${proxy.totalInjected()} faults (${[...proxy.injected].map(([k, n]) => `${k}×${n}`).join(', ')}), ` +
            `${outcome.phases.Succeeded ?? 0} Succeeded, ${describeEffects(measured)}`,
        );
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
    size(300_000, 1_800_000),
  );
});

/**
 * Lost replies: the upstream acted (a build queued, a message posted, a run started) and the answer never came
 * back. The plugin cannot know what happened and must find out before acting again; each documents how far back
 * it looks (Jenkins: the job's last 50 builds, dbt Cloud: the job's 20 most recent runs, Slack: the channel's
 * last 200 messages). LOST_NODES concurrent nodes stay inside every window, so exactly one side effect per node
 * must hold. Soak mode also runs 200 nodes of one job, beyond the windows, and reports what the documented
 * limits cost (duplicates are expected there and only reported).
 */
const LOST_RATE = 0.3;
const LOST_NODES = 16;
/**
 * This suite is about side effects, not about giving up. A Jenkins start takes two to four requests (the job, the
 * queue, the job again, the POST); at 30 % lost such an attempt fails with p = 0.51 to 0.76, so the default budget
 * of 10 consecutive failures ends a node with p = 0.0006 to 0.05 (it did, once, in CI). With 60 the worst case is
 * 0.76⁶¹ ≈ 5·10⁻⁸.
 */
const LOST_RETRY_BUDGET = 60;
const lostLines: string[] = [];

describe('lost replies: the upstream acted, the answer never came', () => {
  afterAll(() => {
    report(
      `lost replies: ${counted.length} plugins × ${LOST_NODES} nodes, ${LOST_RATE * 100} % of upstream answers lost after the upstream acted (seed ${SEED}); ` +
        lostLines.join('; '),
    );
  });

  const cases = counted.flatMap((t) => [
    { name: t.name, nodes: LOST_NODES, strict: true },
    ...(size(0, 1) ? [{ name: t.name, nodes: 200, strict: false }] : []),
  ]);
  it.each(cases)(
    '$name × $nodes nodes',
    async ({ name, nodes, strict }) => {
      const target = counted.find((t) => t.name === name)!;
      const proxied = await launchBehindProxy(
        target,
        { seed: SEED, rate: LOST_RATE, faults: [{ kind: 'lost-reply' }] },
        { sweep, env: { CALL_DEADLINE: `${CALL_DEADLINE_MS}ms`, RETRY_BUDGET: String(LOST_RETRY_BUDGET) } },
      );
      const { run, proxy } = proxied;
      try {
        const before = (await run.count())!;
        const outcome = await runSequence(run, nodes, { name: 'lost-replies' });
        proxy.enabled = false;
        const measured = await sideEffects(proxied, before);
        sweep.collect(`${name} lost-reply nodes`, JSON.stringify(outcome.result.nodes));
        lostLines.push(
          `${name} × ${nodes}: ${proxy.totalInjected()} lost of ${proxy.requests}, ${outcome.phases.Succeeded ?? 0} Succeeded, ${describeEffects(measured)}${strict ? '' : ' (beyond the look-back windows: reported only)'}`,
        );
        expect({ crashes: run.crashes, phases: outcome.phases, failures: failures(outcome) }).toEqual({
          crashes: [],
          phases: { Succeeded: nodes },
          failures: [],
        });
        if (strict) expect(measured.effects).toBe(nodes);
      } finally {
        await run.close();
        await proxy.close();
      }
    },
    size(120_000, 600_000),
  );
});
