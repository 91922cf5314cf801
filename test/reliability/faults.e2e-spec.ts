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
const RATE = Number(process.env.RELIABILITY_FAULT_RATE ?? 0.1);
const CALL_DEADLINE_MS = 1000;
const FAULTS: ProxyFault[] = [
  { kind: 'status', status: 500 },
  { kind: 'status', status: 502 },
  { kind: 'status', status: 503 },
  { kind: 'rate-limit', retryAfterSeconds: 1 },
  { kind: 'rate-limit', retryAfterSeconds: 3 },
  { kind: 'reset' },
  { kind: 'hang', ms: 3000 },
  { kind: 'slow', ms: CALL_DEADLINE_MS + 500 },
  ...(process.env.RELIABILITY_LOST_REPLIES === '1' ? [{ kind: 'lost-reply' } as const] : []),
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
        { sweep, env: { CALL_DEADLINE: `${CALL_DEADLINE_MS}ms` } },
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
