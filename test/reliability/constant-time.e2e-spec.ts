import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { launch } from './support/plugin-run.js';
import { keepAliveAgent, sendRaw } from './support/raw-http.js';
import { report, SEED, size } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { coverageLine, discoverApps, probeTarget, repoRoot } from './support/targets.js';
import { seededRandom } from '@app/local-agent';

/**
 * The token check must not tell an attacker how much of a guess was right. By construction: the kit compares
 * SHA-256 digests (fixed length) with crypto.timingSafeEqual (checked in the source). By measurement: the
 * response time of wrong tokens sharing 0, half, or all but one leading characters with the real one (and of
 * shorter and longer ones) must not differ beyond noise. The statistical check is deliberately tolerant (a
 * loopback round trip is ~100 µs, a naive string comparison differs by nanoseconds): medians of interleaved
 * samples within max(300 µs, 50 % of the baseline median).
 */
const SAMPLES = size(300, 3000);

const apps = discoverApps();
const names = [...apps.targets.map((t) => t.name), 'probe'];
const sweep = new SecretSweep();
const lines: string[] = [];
let worstSpread = 0;
let samples = 0;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

describe('constant-time token comparison', () => {
  it('the kit compares fixed-length SHA-256 digests with timingSafeEqual', () => {
    const source = readFileSync(join(repoRoot, 'libs/plugin-kit/src/auth/token-guard.ts'), 'utf8');
    const authorize = /async authorize\([\s\S]*?\n {2}\}/.exec(source)?.[0] ?? '';
    expect(source).toMatch(/createHash\('sha256'\)\.update\(value\)\.digest\(\)/);
    expect(authorize).toMatch(/timingSafeEqual\(digest\(header\.slice\('Bearer '\.length\)\), expected\)/);
    // No other comparison of the presented token (or the expected one) on the request path.
    const rest = authorize.replace(/timingSafeEqual\([^;]*;/, '').replace("typeof header !== 'string'", '');
    expect(rest).not.toMatch(/(header|token|expected)\b[^;\n]*(===|!==|==|localeCompare|includes|indexOf)/);
    expect(rest).not.toMatch(/(===|!==)\s*(header|this\.token|expected)\b/);
    report(
      'constant time: token-guard.ts compares sha256(presented) with sha256(expected) by timingSafeEqual, no other comparison in authorize()',
    );
  });

  afterAll(() => {
    report(
      coverageLine('constant time', {
        targets: names.map((name) => ({ name })) as never,
        skipped: apps.skipped,
      }),
    );
    report(
      `constant time: ${names.length} plugins × ${samples / names.length} wrong tokens (5 kinds, interleaved), medians differ by ≤ ${worstSpread.toFixed(0)} µs (tolerance max(300 µs, 50 %))`,
    );
    lines.forEach((l) => report(`  ${l}`));
    expect(sweep.check()).toEqual([]);
  });

  it.each(names)(
    '%s: the response time does not depend on how much of the token is right',
    async (name) => {
      const target = name === 'probe' ? await probeTarget() : apps.targets.find((t) => t.name === name)!;
      const run = await launch(target, { sweep });
      const agent = keepAliveAgent(1);
      try {
        const t = run.token;
        const flip = (c: string): string => (c === 'A' ? 'B' : 'A');
        const guesses: Record<string, string> = {
          'prefix 0': flip(t[0]) + t.slice(1).replace(/./g, 'x'),
          'prefix half': t.slice(0, t.length / 2) + 'x'.repeat(t.length - t.length / 2),
          'all but the last': t.slice(0, -1) + flip(t.at(-1)!),
          shorter: t.slice(0, 4),
          longer: t + t + t + t,
        };
        // No body: a refusal with a body still on the wire closes the connection; without one it stays open.
        const body = undefined;
        const times: Record<string, number[]> = Object.fromEntries(Object.keys(guesses).map((k) => [k, []]));
        const order = Object.keys(guesses).flatMap((k) => Array.from({ length: SAMPLES }, () => k));
        const random = seededRandom(SEED);
        for (let i = order.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [order[i], order[j]] = [order[j], order[i]];
        }
        for (const k of order.slice(0, 50))
          await sendRaw(
            run.url,
            {
              method: 'POST',
              path: EXECUTE_TEMPLATE_PATH,
              headers: { Authorization: `Bearer ${guesses[k]}` },
              body,
            },
            { timeoutMs: 5000, agent },
          ); // warm-up
        for (const k of order) {
          const started = process.hrtime.bigint();
          const outcome = await sendRaw(
            run.url,
            {
              method: 'POST',
              path: EXECUTE_TEMPLATE_PATH,
              headers: { Authorization: `Bearer ${guesses[k]}` },
              body,
            },
            { timeoutMs: 5000, agent },
          );
          times[k].push(Number(process.hrtime.bigint() - started) / 1000);
          expect(outcome.kind === 'reply' && outcome.status).toBe(403);
        }
        const medians = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
        const base = medians['prefix 0'];
        const tolerance = Math.max(300, base * 0.5);
        const spread = Math.max(...Object.values(medians)) - Math.min(...Object.values(medians));
        worstSpread = Math.max(worstSpread, spread);
        samples += order.length;
        lines.push(
          `${name}: ${order.length} wrong tokens, median µs ${Object.entries(medians)
            .map(([k, m]) => `${k} ${m.toFixed(0)}`)
            .join(', ')}; spread ${spread.toFixed(0)} µs (tolerance ${tolerance.toFixed(0)} µs)`,
        );
        for (const m of Object.values(medians)) expect(Math.abs(m - base)).toBeLessThanOrEqual(tolerance);
      } finally {
        agent.destroy();
        await run.close();
      }
    },
    size(60_000, 300_000),
  );
});
