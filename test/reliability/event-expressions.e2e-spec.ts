import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bindingYaml,
  deployTemplate,
  GROWING_STRING,
  NESTING,
  UNTIL,
} from '../../libs/events/test/runaway-bindings.js';
import { startServeProcess, type ServeProcess } from '../../libs/events/test/serve-process.js';
import { report } from './support/report.js';

/**
 * `npm run events -- serve` as a process (sync dispatch, default bounds) with bindings whose expressions never
 * end or never stop allocating: nested all() over a range, sprig.until(2000000000), a string that keeps
 * growing. Before the bounds, the first froze every route of the server for good, the second aborted it, the
 * third grew it to 4 GB in a minute. Now each event answers 500 with the expression error of its binding,
 * good events sent meanwhile (every 100 ms) are answered at once, and the server's own memory stays flat: the
 * evaluation runs in an evaluator process, which the bounds end.
 */
const TOKEN = 'reliability-expressions-token-7e2a';
/**
 * A good event is answered in a few milliseconds; on two cores shared with an evaluator that spins and other
 * test files, in under a second. Half the time bound: before the bounds the server answered nothing at all.
 */
const RESPONSIVE_MS = 2500;
/** The server holds neither the evaluation nor its garbage: its peak may move by allocator noise only. */
const SERVER_SLACK_MIB = 40;
/** The default bounds; which one ends an allocating expression first depends on the machine's speed. */
const BOUNDS = {
  time: 'the emulator stopped the evaluation after 5000 ms',
  heap: "the evaluation ran out of the emulator's 256 MiB heap",
};

const ATTACKS = [
  {
    name: 'nested all() over 1..999',
    namespace: 'nesting',
    spec: NESTING.spec,
    site: `failed to evaluate workflow template expression: unable to evaluate expression '${NESTING.source}': `,
  },
  {
    name: 'sprig.until(2000000000)',
    namespace: 'until',
    spec: UNTIL.spec,
    site: 'failed to evaluate workflow label \\"n\\" expression: ',
  },
  {
    name: 'a string growing by toJSON of itself',
    namespace: 'concat',
    spec: GROWING_STRING.spec,
    site: 'failed to evaluate workflow template parameter \\"p\\" expression: ',
  },
];

let dir: string;
let serve: ServeProcess;
const lines: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reliability-expressions-'));
  writeFileSync(join(dir, 'tokens.yaml'), `tokens:\n  - token: ${TOKEN}\n    subject: reliability\n`);
  const runaways = ATTACKS.map(
    (a) => deployTemplate(a.namespace) + bindingYaml('on-event', a.spec, a.namespace),
  ).join('');
  const good = bindingYaml('on-event', '  event:\n    selector: payload.ref == "main"\n', 'argo');
  writeFileSync(join(dir, 'bindings.yaml'), runaways + good);
  serve = await startServeProcess([
    '--bindings',
    dir,
    '--token-file',
    join(dir, 'tokens.yaml'),
    '--event-async-dispatch=false',
  ]);
});
afterAll(async () => {
  // SIGKILL if it does not stop: a server blocked by an expression never handles SIGTERM.
  const stopped = serve?.stop();
  const timer = setTimeout(() => serve?.child.kill('SIGKILL'), 10_000);
  await stopped;
  clearTimeout(timer);
  rmSync(dir, { recursive: true, force: true });
  report(`event expressions: ${lines.join('; ')}`);
});

const post = (namespace: string, signal?: AbortSignal) =>
  fetch(`${serve.url}/api/v1/events/${namespace}/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}` },
    body: '{"ref":"main"}',
    signal,
  });

/** The peak RSS (MiB) of the server's child processes (its evaluators) still alive. */
function evaluatorsPeakMiB(): number {
  const pid = serve.child.pid!;
  let children: string[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  } catch {
    return 0;
  }
  let peak = 0;
  for (const child of children.filter(Boolean)) {
    try {
      const status = readFileSync(`/proc/${child}/status`, 'utf8');
      peak = Math.max(peak, Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // gone between the two reads
    }
  }
  return peak;
}

describe('event expressions: a runaway expression fails its binding; the server stays responsive', () => {
  it.each(ATTACKS)(
    '$name',
    async (attack) => {
      const before = serve.memory();
      const started = performance.now();
      let settled = false;
      const verdict = post(attack.namespace, AbortSignal.timeout(60_000)).then(async (res) => {
        const seconds = (performance.now() - started) / 1000;
        settled = true;
        return { status: res.status, body: await res.text(), seconds };
      });
      const latencies: number[] = [];
      let evaluatorPeak = 0;
      // Good events while the runaway one is evaluated: each must be answered at once.
      while (!settled) {
        evaluatorPeak = Math.max(evaluatorPeak, evaluatorsPeakMiB());
        const sent = performance.now();
        const res = await post('argo', AbortSignal.timeout(10_000));
        expect([res.status, await res.text()]).toEqual([200, '{}']);
        latencies.push(performance.now() - sent);
        await new Promise((r) => setTimeout(r, 100));
      }
      const { status, body, seconds } = await verdict;
      const after = serve.memory();
      const slowest = Math.max(...latencies);
      const bound = Object.entries(BOUNDS).find(([, text]) => body.includes(attack.site + text))?.[0];
      lines.push(
        `${attack.name}: ${status} (${bound ?? 'no'} bound) in ${seconds.toFixed(1)} s, evaluator peak RSS ${evaluatorPeak.toFixed(0)} MiB, server peak RSS ${before.peakMiB.toFixed(0)} → ${after.peakMiB.toFixed(0)} MiB, ${latencies.length} good events meanwhile (slowest ${slowest.toFixed(0)} ms)`,
      );
      expect(status).toBe(500);
      expect(body).toContain(`"message":"failed to dispatch event: [${attack.site}`);
      expect(bound).toBeDefined();
      expect(seconds).toBeLessThan(30);
      expect(latencies.length).toBeGreaterThanOrEqual(3);
      expect(slowest).toBeLessThan(RESPONSIVE_MS);
      expect(after.peakMiB - before.rssMiB).toBeLessThan(SERVER_SLACK_MIB);
    },
    90_000,
  );

  it('is still up and answers a good event', async () => {
    const res = await post('argo');
    expect([res.status, await res.text()]).toEqual([200, '{}']);
  });
});
