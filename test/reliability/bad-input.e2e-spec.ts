import fc from 'fast-check';
import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { denseJson } from '@app/local-agent';
import { badRequests, HEAP_DENSE_BYTES, validRequest, type BadRequest } from './support/bad-requests.js';
import { launch } from './support/plugin-run.js';
import { keepAliveAgent, sendRaw, type RawOutcome } from './support/raw-http.js';
import { replyProblem } from './support/reply-check.js';
import { report, SEED, size } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { coverageLine, discoverApps, probeTarget, type PluginTarget } from './support/targets.js';

/**
 * Bad input over real HTTP against every built plugin (and the kit's probe), each run as its manifest runs it
 * (node flags, memory limit): random and truncated JSON, wrong types at every level, unknown fields,
 * __proto__/constructor keys, 10,000-deep nesting, invalid UTF-8, 5 MB bodies, heap-dense bodies under the
 * byte limit (`[{},{},…]`, `[[[…]]]`), huge headers, bad Authorization, wrong methods and paths. Every reply
 * must be 400/403/404/413/503 or a 200 the agent decodes into a valid reply; never a 500, a hang or a crash.
 * Then heap-dense bodies all at once, with a light call meanwhile: it is answered at once.
 */
const CASES = size(5_000, 50_000);
const LANES = 4; // concurrent fast-check runs (seeds SEED..SEED+3) over 4 keep-alive connections
const TIMEOUT_MS = 10_000; // per request; the plugin runs with CALL_DEADLINE=2s
const DENSE_AT_ONCE = 8; // heap-dense bodies sent together (half wide, half deep), then as many at the value bound
const BODY_MAX_VALUES = 20_000; // the kit's default
const LIGHT_CALL_MS = 2000; // longest a light call may wait while heavy bodies arrive

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

describe('bad input: every reply is 400/403/404/413/503 or a valid 200; no 500, hang or crash', () => {
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
          .join(' ')}, 0 × 500, 0 crashes (heap-dense bodies included), 0 hangs, ` +
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

  it.each(names)(
    '%s: heap-dense bodies at once, and a light call meanwhile',
    async (name) => {
      const target = name === 'probe' ? await probeTarget() : apps.targets.find((t) => t.name === name)!;
      const run = await launch(target, { sweep, env: { CALL_DEADLINE: '2s' } });
      const auth = { Authorization: `Bearer ${run.token}`, 'Content-Type': 'application/json' };
      /** The plugin's own body with `json` in an unknown field (a Failed node once parsed). */
      const own = (json: string, seq: string): string => {
        const request = validRequest(target.key, target.config) as {
          template: { inputs: { parameters: Array<{ value: string }> }; plugin: Record<string, object> };
        };
        request.template.inputs.parameters[0].value = seq;
        request.template.plugin[target.key] = { ...request.template.plugin[target.key], dense: '__DENSE__' };
        return JSON.stringify(request).replace('"__DENSE__"', json);
      };
      const send = (body: string) =>
        sendRaw(
          run.url,
          { method: 'POST', path: EXECUTE_TEMPLATE_PATH, headers: auth, body },
          { timeoutMs: TIMEOUT_MS },
        );
      const light = async (): Promise<RawOutcome> => {
        await new Promise((r) => setTimeout(r, 50));
        return send(JSON.stringify(validRequest('some-other-plugin', {})));
      };
      const tally = (outcomes: RawOutcome[]): string[] =>
        outcomes.map((o) => (o.kind === 'reply' ? String(o.status) : (o.code ?? 'error')));
      const counted = (labels: string[]): string =>
        [...new Set(labels)]
          .sort()
          .map((l) => `${l}×${labels.filter((x) => x === l).length}`)
          .join(' ');
      try {
        // Over the bounds: refused while they arrive, before anything is parsed.
        const over = Array.from({ length: DENSE_AT_ONCE }, (_, i) =>
          own(denseJson(i % 2 ? 'deep' : 'wide', HEAP_DENSE_BYTES), `dense-${i}`),
        );
        let t0 = performance.now();
        const [refused, lightDuringRefusals] = await Promise.all([Promise.all(over.map(send)), light()]);
        const refusedMs = Math.round(performance.now() - t0);
        // At the value bound, padded to the same size: parsed (each fails on its unknown field) or 503 past the budget.
        const values = BODY_MAX_VALUES - 200; // the rest of the request has fewer than 200 values and keys
        const atBound = Array.from({ length: DENSE_AT_ONCE }, (_, i) => {
          const wide = `[${'{},'.repeat(values - 2)}{}`;
          return own(`${wide},"${'x'.repeat(HEAP_DENSE_BYTES - wide.length - 10)}"]`, `bound-${i}`);
        });
        t0 = performance.now();
        const [parsed, lightDuringParses] = await Promise.all([Promise.all(atBound.map(send)), light()]);
        const parsedMs = Math.round(performance.now() - t0);

        const memory = run.memory();
        const limit = target.memoryLimitMiB ?? 160;
        const lights = [lightDuringRefusals, lightDuringParses];
        figures.push(
          `${name}: heap-dense, ${DENSE_AT_ONCE} × ${HEAP_DENSE_BYTES / 1024} KiB at once (half [{},…], half [[[…]]]): ${counted(tally(refused))} in ${refusedMs} ms; ` +
            `${DENSE_AT_ONCE} at the value bound (${values} values): ${counted(tally(parsed))} in ${parsedMs} ms; ` +
            `a light call meanwhile answered in ${lights.map((l) => l.ms).join(' / ')} ms; peak RSS ${memory.peakMb.toFixed(0)} MiB (limit ${limit} MiB)`,
        );
        for (const o of [...refused, ...parsed, ...lights])
          if (o.kind === 'reply') sweep.collect(`${name} heap-dense reply`, o.text);
        const after = await send(own('[]', 'after-dense').replace(',"dense":[]', ''));
        expect({
          crashes: run.crashes,
          refused: tally(refused).filter((l) => !['413', '503', 'EPIPE', 'ECONNRESET'].includes(l)),
          parsed: tally(parsed).filter((l) => !['200', '503'].includes(l)),
          someParsed: tally(parsed).includes('200'),
          lights: lights.map(
            (l) => (l.kind === 'reply' && l.status === 200 && l.text === '{}' && l.ms < LIGHT_CALL_MS) || l,
          ),
          underLimit: memory.peakMb < limit,
          after: after.kind === 'reply' && after.status === 200 && JSON.parse(after.text).node?.phase,
        }).toEqual({
          crashes: [],
          refused: [],
          parsed: [],
          someParsed: true,
          lights: [true, true],
          underLimit: true,
          after: expect.stringMatching(/^(Succeeded|Running|Pending)$/),
        });
      } finally {
        await run.close();
      }
    },
    120_000,
  );
});
