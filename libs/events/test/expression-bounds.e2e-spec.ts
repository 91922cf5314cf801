// `npm run events -- test` with expressions that never end or never stop allocating (the reproductions of an
// adversarial review: before the bounds the first hung for good, the second aborted V8, the third grew to
// 4 GB in a minute). With the default bounds each is an error for its binding, and the other binding of the
// folder is still evaluated.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bindingYaml, deployTemplate, GROWING_STRING, NESTING, UNTIL } from './runaway-bindings.js';
import { repoRoot } from './serve-process.js';
import { binding, endpoint, send, submitWft } from './support.js';

/** The template and a binding that matches the test event, beside each runaway one. */
const FOLDER = deployTemplate() + bindingYaml('fine', '  event:\n    selector: payload.ref == "main"\n');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'events-bounds-'));
  writeFileSync(join(dir, 'event.json'), '{"ref":"main"}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `events test` on the template, the fine binding and `binding`: exit status, output, seconds to the verdict.
 * `options`: more flags (an allocating expression is given time enough that only the heap bound can end it).
 */
function testWith(name: string, spec: string, options: string[] = []) {
  const bindings = join(dir, name);
  mkdirSync(bindings);
  writeFileSync(join(bindings, 'bindings.yaml'), FOLDER + bindingYaml('runaway', spec));
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      'tools/run-cli.mjs',
      'events',
      'test',
      '--bindings',
      bindings,
      '--payload',
      join(dir, 'event.json'),
      ...options,
    ],
    { cwd: repoRoot, encoding: 'utf8', timeout: 90_000 },
  );
  return { status: r.status, output: r.stdout + r.stderr, seconds: (performance.now() - started) / 1000 };
}

/**
 * Filling 256 MiB takes 2–4 s on an idle machine, and up to 43 s was measured on 2 cores at a load average of
 * 24 (the time bound is lifted to 60 s in those cases so that only the heap bound can end them).
 */
const HEAP_VERDICT_SECONDS = 60;

const TIME_BOUND =
  'the emulator stopped the evaluation after 5000 ms (its --expression-timeout; the real server has no time limit)';
const HEAP_BOUND =
  "the evaluation ran out of the emulator's 256 MiB heap (its --expression-heap; the real server has no such limit)";

describe('events test: an expression past the bounds fails its binding, and only it', () => {
  it('nested all() over a range (10^12 steps) stops at the time bound, 5 s by default', () => {
    const r = testWith('nesting', NESTING.spec);
    expect(r.output).toContain(
      `failed to dispatch event: failed to evaluate workflow template expression: unable to evaluate expression '${NESTING.source}': ${TIME_BOUND} (1:1)`,
    );
    expect(r.output).toContain('✔ fine: matched');
    expect(r.status).toBe(1);
    expect(r.seconds).toBeLessThan(25);
  }, 100_000);

  it('sprig.until(2000000000) stops at the heap bound, 256 MiB by default; V8 does not abort the CLI', () => {
    const r = testWith('until', UNTIL.spec, ['--expression-timeout', '60000']);
    expect(r.output).toContain(
      `failed to dispatch event: failed to evaluate workflow label "n" expression: ${HEAP_BOUND} (1:1)`,
    );
    expect(r.output).toContain('✔ fine: matched');
    expect(r.status).toBe(1);
    expect(r.seconds).toBeLessThan(HEAP_VERDICT_SECONDS);
  }, 100_000);

  it('a string that keeps growing (toJSON of itself, again and again) stops at the heap bound', () => {
    const r = testWith('concatenation', GROWING_STRING.spec, ['--expression-timeout', '60000']);
    expect(r.output).toContain(
      `failed to dispatch event: failed to evaluate workflow template parameter "p" expression: ${HEAP_BOUND} (1:1)`,
    );
    expect(r.output).toContain('✔ fine: matched');
    expect(r.status).toBe(1);
    expect(r.seconds).toBeLessThan(HEAP_VERDICT_SECONDS);
  }, 100_000);
});

describe('serve: the dispatch of a binding past a bound', () => {
  it('is its expression error, as a Warning Event and in the sync 500; the other binding submits', async () => {
    const ep = await endpoint(
      [
        binding('a-good', { selector: 'true', submit: submitWft({ ref: 'payload.ref' }) }),
        binding('b-runaway', {
          selector: 'true',
          submit: submitWft({ spin: 'let x = 1..999; all(x, all(x, all(x, true)))' }),
        }),
      ],
      { expressionTimeoutMs: 500 },
    );
    const started = performance.now();
    const reply = await send(ep.url, '/api/v1/events/argo/', { body: { ref: 'main' } });
    const seconds = (performance.now() - started) / 1000;
    const error =
      'failed to evaluate workflow template parameter "spin" expression: the emulator stopped the evaluation after 500 ms (its --expression-timeout; the real server has no time limit) (1:1)\n | let x = 1..999; all(x, all(x, all(x, true)))\n | ^';
    expect([reply.status, reply.json()]).toEqual([
      500,
      { code: 13, message: `failed to dispatch event: [${error}]` },
    ]);
    expect(ep.events().map((e) => [e.involvedObject.name, e.message])).toEqual([
      ['b-runaway', `failed to dispatch event: ${error}`],
    ]);
    expect(
      ep.workflows().map((w) => w.metadata.labels['workflows.argoproj.io/workflow-event-binding']),
    ).toEqual(['a-good']);
    expect(seconds).toBeLessThan(10);
  }, 30_000);
});
