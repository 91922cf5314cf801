import fc from 'fast-check';
import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { badRequests, validRequest, type BadRequest } from './support/bad-requests.js';
import { launch } from './support/plugin-run.js';
import { keepAliveAgent, sendRaw, type RawOutcome } from './support/raw-http.js';
import { replyProblem } from './support/reply-check.js';
import { report, SEED, size } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { coverageLine, discoverApps, probeTarget, type PluginTarget } from './support/targets.js';

/**
 * Bad input over real HTTP against every built plugin (and the kit's probe): random and truncated JSON, wrong
 * types at every level, unknown fields, __proto__/constructor keys, 10,000-deep nesting, invalid UTF-8, 5 MB
 * bodies, huge headers, bad Authorization, wrong methods and paths. Every reply must be 400/403/404/413 or a
 * 200 the agent decodes into a valid reply; never a 500, a hang or a crash.
 */
const CASES = size(5_000, 50_000);
const LANES = 4; // concurrent fast-check runs (seeds SEED..SEED+3) over 4 keep-alive connections
const TIMEOUT_MS = 10_000; // per request; the plugin runs with CALL_DEADLINE=2s

const apps = discoverApps();
const names = [...apps.targets.map((t) => t.name), 'probe'];
const sweep = new SecretSweep();
const figures: string[] = [];
const statuses = new Map<string, number>();
let requests = 0;
let slowest = 0;

let closedEarly = 0;

function judge(req: BadRequest, outcome: RawOutcome): string | undefined {
  if (req.mayReset && outcome.kind === 'error' && ['EPIPE', 'ECONNRESET'].includes(outcome.code ?? '')) {
    closedEarly++;
    return undefined;
  }
  const problem = replyProblem(outcome);
  if (problem) return problem;
  if (outcome.kind === 'reply' && req.expect && !req.expect.includes(outcome.status))
    return `status ${outcome.status}, expected ${req.expect.join(' or ')}: ${outcome.text.slice(0, 200)}`;
  return undefined;
}

function describeRequest(req: BadRequest): string {
  const body = req.body === undefined ? '' : Buffer.from(req.body);
  const headers = Object.entries(req.headers).map(
    ([k, v]) => `${k}: ${v.length > 80 ? `<${v.length} chars>` : v}`,
  );
  return `${req.kind}\n  ${req.method} ${req.path.slice(0, 200)}\n  ${headers.join('\n  ')}\n  body (${body.length} bytes): ${body.toString('utf8', 0, 300)}`;
}

describe('bad input: every reply is 400/403/404/413 or a valid 200; no 500, hang or crash', () => {
  afterAll(() => {
    const leaks = sweep.check();
    report(
      coverageLine('bad input', {
        targets: names.map((name) => ({ name }) as PluginTarget),
        skipped: apps.skipped,
      }),
    );
    report(
      `bad input: ${names.length} plugins × ${CASES} cases (seed ${SEED}, ${requests} requests with shrinking), ` +
        `replies ${[...statuses]
          .sort()
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}, 0 × 500, 0 crashes, 0 hangs, ` +
        `slowest ${slowest} ms, ${closedEarly} refusals closed before the client finished sending; secrets: ${sweep.summary()}`,
    );
    figures.forEach((f) => report(`  ${f}`));
    expect(leaks).toEqual([]);
  });

  it.each(names)(
    '%s',
    async (name) => {
      const target = name === 'probe' ? await probeTarget() : apps.targets.find((t) => t.name === name)!;
      const run = await launch(target, { sweep, env: { CALL_DEADLINE: '2s' } });
      const agent = keepAliveAgent(LANES);
      const mine = new Map<string, number>();
      const started = performance.now();
      try {
        const arbitrary = badRequests({ key: target.key, config: target.config, token: run.token });
        const property = fc.asyncProperty(arbitrary, async (req) => {
          const outcome = await sendRaw(run.url, req, { timeoutMs: TIMEOUT_MS, agent });
          requests++;
          slowest = Math.max(slowest, outcome.ms);
          const label = outcome.kind === 'reply' ? String(outcome.status) : (outcome.code ?? 'error');
          mine.set(label, (mine.get(label) ?? 0) + 1);
          if (outcome.kind === 'reply') sweep.collect(`${name} reply to ${req.kind}`, outcome.text);
          const problem = judge(req, outcome);
          if (problem) throw new Error(`${problem}\nrequest: ${describeRequest(req)}`);
        });
        const results = await Promise.all(
          Array.from({ length: LANES }, (_, lane) =>
            fc.check(property, { numRuns: CASES / LANES, seed: SEED + lane, endOnFailure: true }),
          ),
        );
        const failure = results.find((r) => r.failed);
        if (failure) {
          throw new Error(
            `${name}: a bad request got a bad reply (seed ${failure.seed}, path ${failure.counterexamplePath}):\n` +
              String((failure.errorInstance as Error | undefined)?.message),
          );
        }

        // Still alive and still answering properly.
        expect(run.proc.child.exitCode).toBeNull();
        expect(run.proc.child.signalCode).toBeNull();
        const last = await sendRaw(
          run.url,
          {
            method: 'POST',
            path: EXECUTE_TEMPLATE_PATH,
            headers: { Authorization: `Bearer ${run.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(validRequest(target.key, target.config)),
          },
          { timeoutMs: TIMEOUT_MS },
        );
        expect(replyProblem(last)).toBeUndefined();
        expect(last.kind === 'reply' && last.status).toBe(200);
        expect(last.kind === 'reply' && JSON.parse(last.text).node?.phase).toMatch(
          /^(Succeeded|Running|Pending)$/,
        );
      } finally {
        agent.destroy();
        await run.close();
        for (const [s, n] of mine) statuses.set(s, (statuses.get(s) ?? 0) + n);
        figures.push(
          `${name}: ${CASES} cases in ${((performance.now() - started) / 1000).toFixed(1)} s, replies ${[
            ...mine,
          ]
            .sort()
            .map(([s, n]) => `${s}×${n}`)
            .join(' ')}`,
        );
      }
    },
    size(90_000, 900_000),
  );
});
