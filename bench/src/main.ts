// The benchmark (bench/run.mjs bundles this, then runBench checks the options, has the plugins built and
// measures). See docs/performance.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { format } from 'prettier';
import { parse as parseYaml } from 'yaml';
import { FOREIGN_PLUGIN, freshUid, requestBody } from './bodies.js';
import { launchUnderLimit, memoryQuantityMiB } from '@app/local-agent/demo/container-memory.js';
import { coldStart, type ColdRun } from './cold-start.js';
import { firstReply, postExecute } from './contract-client.js';
import { loadRun, type LoadRun } from './load.js';
import { runCommand, UsageError, type CommandSpec, type ParsedCommand } from '../../tools/cli/kit/args.js';
import { ownTemplate, type BuildPlan } from './plan.js';
import { resultsFile } from './results-file.js';
import { freePort } from './process-control.js';
import { startStandIns } from './stand-ins.js';
import { addRatios, checkTargets, summarizeTarget, type TargetCheck, type TargetSummary } from './summary.js';
import { fmt, mib, renderTable, withRatio } from './table.js';
import { spawnTarget, type RunContext, type Target } from './targets.js';
import { pollCost, type PollCost } from './upstream-cost.js';
import { sideBySide, type SideBySide } from './side-by-side.js';
import { prepareRevision, revisionCache, type Revision } from './revision.js';
import { compareSamples, renderComparison, type Sample } from './revision-compare.js';
import { sampleRevision } from './revision-run.js';

const HELP = `usage: npm run bench -- [options]
  --starts N        cold starts per target and template, and rounds of the side by side (default 10)
  --duration S      measured seconds per load window (default 5), --warmup S before each (default 1)
  --rounds N        load runs per target, interleaved with the baseline (default 2)
  --connections N   concurrent connections (default 16)
  --settle MS       wait after the first reply before reading VmRSS (default 1000)
  --poll-nodes N    executions kept running for the upstream-cost check (default 50), --poll-rounds N (6)
  --only APP        measure only these apps (repeatable); the baseline always runs
  --skip WHAT       cold | load | polls | side (repeatable; side: four sidecars vs the collection)
  --node-args "..." node flags for the plugins instead of their manifest's (e.g. "--max-semi-space-size=1")
  --node PATH       node binary for every target (e.g. the image's Node 24; default: the one running this)
  --out FILE        results file (default bench/.work/results.json, untracked)
  --write           write the results to bench/results.json, the figures docs/performance.md quotes
  --quick           3 starts, 2 s windows, 1 round, 10 poll nodes: to check the harness, not to quote
  --note TEXT       stored with the results
  --baseline REV    also build REV (a commit, tag or branch) in ~/.cache/executor-plugins/bench/<commit> and
                    sample the sidecars both have, REV's and the working tree's alternately, --starts N
                    each: cold start and memory after a foreign and after their own template; prints
                    both, the difference and the spread
  --candidate REV   with --baseline: REV's builds (made the same way) in place of the working tree's, to
                    measure one change on its own (e.g. --baseline M^1 --candidate M for a merge M)

The targets at the end are the goals of docs/performance.md: a missed one is reported (✖) and explained
there; it does not fail the run. Exit 0 when the measurements ran, 1 if the harness failed.`;

const SPEC = {
  usage: HELP,
  options: {
    starts: { type: 'string', default: '10' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    settle: { type: 'string', default: '1000' },
    'poll-nodes': { type: 'string', default: '50' },
    'poll-rounds': { type: 'string', default: '6' },
    'poll-gap': { type: 'string', default: '300' },
    only: { type: 'string', multiple: true },
    skip: { type: 'string', multiple: true, choices: ['cold', 'load', 'polls', 'side'] },
    'node-args': { type: 'string' },
    node: { type: 'string', input: 'file' },
    out: { type: 'string' },
    write: { type: 'boolean' },
    quick: { type: 'boolean' },
    note: { type: 'string' },
    baseline: { type: 'string' },
    candidate: { type: 'string' },
  },
} as const satisfies CommandSpec;

const NUMERIC = [
  'starts',
  'duration',
  'warmup',
  'rounds',
  'connections',
  'settle',
  'poll-nodes',
  'poll-rounds',
  'poll-gap',
] as const;

type Options = ParsedCommand<typeof SPEC.options>['values'];
let opts: Options;
let settings: ReturnType<typeof settingsOf>;
let skip: Set<string>;
let plan: BuildPlan;
let root: string;
let outFile: string;
const log = (text: string): void => void process.stderr.write(`${text}\n`);

function settingsOf(o: Options) {
  if (o.candidate !== undefined && o.baseline === undefined)
    throw new UsageError('--candidate needs --baseline: it replaces the working tree in that comparison');
  for (const name of NUMERIC)
    if (!(Number(o[name]) >= 0)) throw new UsageError(`--${name} must be a number, got '${o[name]}'`);
  const num = (name: (typeof NUMERIC)[number], quickValue?: number): number =>
    o.quick && quickValue !== undefined ? quickValue : Number(o[name]);
  return {
    starts: num('starts', 3),
    durationS: num('duration', 2),
    warmupS: num('warmup', 1),
    rounds: num('rounds', 1),
    connections: num('connections'),
    settleMs: num('settle', 500),
    pollNodes: num('poll-nodes', 10),
    pollRounds: num('poll-rounds', 4),
    pollGapMs: num('poll-gap'),
  };
}

/**
 * The bench command: checks the arguments (help and usage errors before anything is built), has bench/run.mjs
 * build the plugins (`makePlan`), then measures.
 */
export async function runBench(
  argv: string[],
  makePlan: (only: string[]) => Promise<BuildPlan>,
): Promise<number | undefined> {
  return runCommand({ name: 'bench', help: 'npm run bench -- --help' }, argv, SPEC, async ({ values }) => {
    opts = values;
    settings = settingsOf(values);
    skip = new Set(values.skip);
    if (values.write && values.out) throw new UsageError('--write and --out go separately');
    plan = await makePlan(values.only);
    root = plan.root;
    outFile = resultsFile(values, root, plan.work);
    await main();
    return 0;
  });
}

/** Node flags from the manifest's container command (`[node, --flag, ..., /app/main.js]`). */
function manifestNodeArgs(
  app: string,
  tree = root,
): { args: string[]; resources?: unknown; memoryLimitMiB?: number } {
  const file = join(tree, 'manifests', app, 'plugin.yaml');
  if (!existsSync(file)) return { args: [] };
  const doc = parseYaml(readFileSync(file, 'utf8')) as {
    spec?: {
      sidecar?: {
        container?: { command?: string[]; resources?: { limits?: { memory?: string } } };
      };
    };
  };
  const container = doc.spec?.sidecar?.container;
  const command = container?.command ?? [];
  const args = command.slice(1).filter((a) => a.startsWith('-'));
  return {
    args,
    resources: container?.resources,
    memoryLimitMiB: memoryQuantityMiB(container?.resources?.limits?.memory),
  };
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** One start per target before measuring: the file cache is warm and every body is checked. */
async function preflight(target: Target, ctx: RunContext): Promise<void> {
  const port = await freePort();
  const proc = spawnTarget(target, ctx, port, join(ctx.logDir, `${target.name}-preflight.log`));
  try {
    const foreign = await firstReply(
      port,
      ctx.token,
      requestBody(FOREIGN_PLUGIN, freshUid()),
      performance.now() + 15_000,
    );
    if (foreign.status !== 200 || foreign.text !== '{}')
      throw new Error(`foreign template: HTTP ${foreign.status} ${foreign.text.slice(0, 200)}`);
    if (!target.own) {
      target.ownProblem ??=
        'no own template (apps/<app>/test/conformance.json or bench/templates/<app>.json)';
      return;
    }
    const own = await postExecute(
      port,
      ctx.token,
      requestBody({ [target.key]: target.own.config }, freshUid()),
    );
    const phase = own.json?.node?.phase;
    if (own.status !== 200 || !phase || phase === 'Failed' || phase === 'Error')
      target.ownProblem = `own template (${target.own.source}) answered ${own.status} ${phase ?? ''}: ${own.json?.node?.message ?? own.text.slice(0, 200)}`;
  } finally {
    await proc.stop();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadBefore = loadavg();
  const logDir = join(plan.work, 'logs');
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const token = 'bcdfghjklmnpqrstvwxz2456789bcdfg';
  const tokenFile = join(plan.work, 'token');
  writeFileSync(tokenFile, token);
  const ctx: RunContext = { token, tokenFile, logDir, node: opts.node ?? process.execPath };

  const baselineEntry = join(root, 'bench/baseline/server.mjs');
  const baseline: Target = {
    name: 'baseline',
    kind: 'baseline',
    entry: baselineEntry,
    env: { BENCH_KEY: 'baseline' },
    nodeArgs: [],
    // Under load it runs in the collection's memory limit, like the plugins in theirs.
    memoryLimitMiB: manifestNodeArgs('collection').memoryLimitMiB,
    bytes: statSync(baselineEntry).size,
    key: 'baseline',
    own: {
      key: 'baseline',
      config: { channel: '#builds', status: 'succeeded', text: 'Build finished: *bench* in `argo`' },
      source: 'bench/src/main.ts',
      polls: [],
    },
  };
  const targets: Target[] = [baseline];
  const apps = plan.apps.filter((a) => opts.only.length === 0 || opts.only.includes(a.app));
  const skipped = [...plan.skipped];
  for (const app of apps) {
    const manifest = manifestNodeArgs(app.app);
    try {
      const standIns = await startStandIns(app.standIns);
      const own = ownTemplate(root, app.app, app.conformance);
      targets.push({
        name: app.app,
        kind: 'plugin',
        entry: app.entry,
        env: standIns.env,
        nodeArgs:
          opts['node-args'] !== undefined ? opts['node-args'].split(/\s+/).filter(Boolean) : manifest.args,
        memoryLimitMiB: manifest.memoryLimitMiB,
        bytes: app.bytes,
        key: own?.key ?? app.app,
        own,
        standIns,
      });
    } catch (err) {
      skipped.push({ app: app.app, reason: `stand-ins: ${(err as Error).message}` });
    }
  }
  if (plan.probe)
    targets.push({
      name: 'kit-probe',
      kind: 'probe',
      entry: plan.probe.entry,
      env: {},
      nodeArgs: ['--max-old-space-size=48'],
      bytes: plan.probe.bytes,
      key: 'probe',
      own: {
        key: 'probe',
        config: { message: 'hello' },
        source: 'libs/plugin-kit/test/fixtures/probe-plugin.ts',
        polls: [],
      },
    });
  // Everything compared with the baseline under load; the probe only there (its fixture imports Nest up front,
  // so its start-up says nothing about an app's).
  const plugins = targets.filter((t) => t.kind !== 'baseline');
  try {
    for (const t of [...targets]) {
      try {
        await preflight(t, ctx);
        if (t.ownProblem) log(`${t.name}: ${t.ownProblem}`);
      } catch (err) {
        skipped.push({ app: t.name, reason: `preflight: ${(err as Error).message}` });
        targets.splice(targets.indexOf(t), 1);
        plugins.splice(plugins.indexOf(t), 1);
      }
    }
    log(
      `measuring ${targets.map((t) => `${t.name}${t.nodeArgs.length ? ` [${t.nodeArgs.join(' ')}]` : ''}`).join(', ')}`,
    );
    const probe = launchUnderLimit('-e0', [], 64, { emulate: false });
    probe.release();
    log(
      probe.model.startsWith('cgroup')
        ? `memory: each process in a memory cgroup of its manifest's limits.memory (${probe.model.split(' ').slice(0, 2).join(' ')}), as in its pod`
        : `memory: ${probe.model}`,
    );

    const cold: ColdRun[] = [];
    if (!skip.has('cold')) {
      for (let i = 0; i < settings.starts; i++) {
        // Rotate the order each round so no target always goes first after a pause.
        const starters = targets.filter((t) => t.kind !== 'probe');
        const order = starters.map((_, k) => starters[(k + i) % starters.length]);
        for (const t of order) {
          for (const template of ['foreign', 'own'] as const) {
            if (template === 'own' && t.ownProblem) continue;
            const run = await coldStart(t, template, ctx, { settleMs: settings.settleMs, label: String(i) });
            cold.push(run);
            if (run.error) log(`  cold ${t.name} ${template}: ${run.error}`);
          }
        }
        log(`cold starts: round ${i + 1}/${settings.starts}`);
      }
    }

    let revision: { baseline: Revision; candidate?: Revision; samples: Sample[] } | undefined;
    if (opts.baseline) {
      const baseline = prepareRevision(opts.baseline, { root, cache: revisionCache(), node: ctx.node });
      for (const s of baseline.skipped) log(`  ${opts.baseline}: skipped ${s.app}: ${s.reason}`);
      const candidate =
        opts.candidate === undefined
          ? undefined
          : prepareRevision(opts.candidate, { root, cache: revisionCache(), node: ctx.node });
      for (const s of candidate?.skipped ?? []) log(`  ${opts.candidate}: skipped ${s.app}: ${s.reason}`);
      const samples = await sampleRevision(
        plugins.filter((t) => t.kind === 'plugin'),
        baseline,
        ctx,
        {
          rounds: settings.starts,
          settleMs: settings.settleMs,
          nodeArgs: (app) => manifestNodeArgs(app, baseline.dir).args,
          log,
          candidate: candidate && {
            revision: candidate,
            nodeArgs: (app) => manifestNodeArgs(app, candidate.dir).args,
          },
        },
      );
      revision = { baseline, candidate, samples };
    }

    const loads: LoadRun[] = [];
    if (!skip.has('load')) {
      for (let r = 0; r < settings.rounds; r++) {
        const pairs = plugins.length > 0 ? plugins : [undefined];
        for (const plugin of pairs) {
          const pair = plugin ? [baseline, plugin] : [baseline];
          if (r % 2 === 1) pair.reverse();
          for (const t of pair) {
            const run = await loadRun(t, ctx, {
              connections: settings.connections,
              durationS: settings.durationS,
              warmupS: settings.warmupS,
              label: `${r}-${plugin?.name ?? 'alone'}`,
            });
            loads.push(run);
            log(
              `load ${t.name}: foreign ${fmt(run.foreign?.rps)} req/s p99 ${fmt(run.foreign?.p99)} ms; own ${fmt(run.own?.rps)} req/s p99 ${fmt(run.own?.p99)} ms; peak ${fmt(mib(run.peakKiB), ' MiB', 1)}${run.error ? `; ${run.error}` : ''}`,
            );
          }
        }
      }
    }

    const polls: PollCost[] = [];
    if (!skip.has('polls')) {
      for (const t of plugins) {
        if (!t.standIns) continue;
        for (const body of t.own?.polls ?? []) {
          const cost = await pollCost(t, body, ctx, {
            nodes: settings.pollNodes,
            rounds: settings.pollRounds,
            roundGapMs: settings.pollGapMs,
          });
          polls.push(cost);
          log(
            `polls ${t.name}/${body.name}: trigger ${fmt(cost.triggerPerNode, '', 2)} req/node, ${cost.polls} polls, max ${fmt(cost.maxPerPoll)} mean ${fmt(cost.meanPerPoll, '', 2)} req/poll${cost.error ? `; ${cost.error}` : ''}`,
          );
        }
      }
    }

    let side: SideBySide | undefined;
    const collection = plugins.find((t) => t.name === 'collection');
    const hosted = plugins.filter((t) => t.kind === 'plugin' && t !== collection);
    if (!skip.has('side') && collection && hosted.length > 1) {
      side = await sideBySide(baseline, hosted, collection, ctx, {
        // Not fewer: a median of 5 starts of ~60 ms on a shared 2-core machine moved ±5 % between runs.
        rounds: settings.starts,
        settleMs: settings.settleMs,
        nodes: 200,
        busyCalls: 400,
      });
      log(`side by side: ${hosted.length} sidecars vs the collection, ${side.rounds} rounds`);
    }

    const summaries = targets.map((t) =>
      summarizeTarget(
        t.name,
        t.kind,
        t.bytes,
        cold.filter((c) => c.target === t.name),
        loads.filter((l) => l.target === t.name),
        polls.filter((p) => p.target === t.name),
      ),
    );
    const base = summaries[0];
    const checks: TargetCheck[] = [];
    for (const s of summaries.slice(1)) {
      addRatios(base, s);
      checks.push(...checkTargets(base, s));
    }
    const loadAfter = loadavg();
    const meta = {
      date: new Date(started).toISOString(),
      durationS: Math.round((Date.now() - started) / 1000),
      commit: gitCommit(),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryMiB: Math.round(totalmem() / 2 ** 20),
      loadAverage: {
        before: loadBefore.map((l) => +l.toFixed(2)),
        after: loadAfter.map((l) => +l.toFixed(2)),
      },
      settings,
      buildMs: plan.buildMs,
      note: opts.note,
      skipped,
    };
    const report = renderReport(summaries, checks, meta.loadAverage);
    console.log(report);
    if (side) console.log(renderSideBySide(side, hosted.length));
    const compared = revision && compareSamples(revision.samples);
    if (revision && compared) console.log(renderComparison(compared, revision.baseline, revision.candidate));
    const json = JSON.stringify(
      {
        meta,
        targets: targets.map((t) => ({
          name: t.name,
          kind: t.kind,
          nodeArgs: t.nodeArgs,
          bytes: t.bytes,
          ownTemplate: t.own && { key: t.key, source: t.own.source, config: t.own.config },
          ownProblem: t.ownProblem,
          manifest: t.kind === 'plugin' ? manifestNodeArgs(t.name) : undefined,
        })),
        summary: summaries,
        checks,
        sideBySide: side,
        baseline: revision && {
          rev: revision.baseline.rev,
          commit: revision.baseline.commit,
          candidate: revision.candidate && { rev: revision.candidate.rev, commit: revision.candidate.commit },
          compared,
          samples: revision.samples,
        },
        runs: { cold, load: loads, polls },
      },
      null,
      2,
    );
    // Formatted as the repository's lint expects (prettier --check covers *.json).
    writeFileSync(outFile, await format(json, { filepath: outFile }));
    log(`results written to ${outFile}`);
  } finally {
    await Promise.all(plugins.map((t) => t.standIns?.close()));
  }
}

function renderReport(
  summaries: TargetSummary[],
  checks: TargetCheck[],
  load: { before: number[]; after: number[] },
): string {
  const base = summaries[0];
  const col = (f: (s: TargetSummary) => string): string[] => summaries.map(f);
  const lat = (x?: { p50?: number; p99?: number }): string => (x ? `${fmt(x.p50)} / ${fmt(x.p99)} ms` : '–');
  const rows: string[][] = [
    [
      'cold start, foreign template (median)',
      ...col((s) => withRatio(s.coldForeignMs, s.ratios.coldForeign, ' ms')),
    ],
    ['cold start, own template (median)', ...col((s) => withRatio(s.coldOwnMs, s.ratios.coldOwn, ' ms'))],
    ['idle RSS after start', ...col((s) => withRatio(mib(s.idleRssKiB), s.ratios.idleRss, ' MiB', 1))],
    ['RSS after first own call', ...col((s) => withRatio(mib(s.ownRssKiB), s.ratios.ownRss, ' MiB', 1))],
    ['peak RSS under load (VmHWM)', ...col((s) => withRatio(mib(s.peakRssKiB), s.ratios.peakRss, ' MiB', 1))],
    ['foreign: req/s', ...col((s) => withRatio(s.foreign?.rps, s.ratios.foreignRps))],
    ['foreign: p50 / p99', ...col((s) => lat(s.foreign))],
    [
      'foreign: server CPU per request',
      ...col((s) => withRatio(s.foreign?.cpuMs, s.ratios.foreignCpu, ' ms', 3)),
    ],
    ['own, new execution each: req/s', ...col((s) => withRatio(s.own?.rps, s.ratios.ownRps))],
    ['own: p50 / p99', ...col((s) => lat(s.own))],
    ['own: server CPU per request', ...col((s) => withRatio(s.own?.cpuMs, s.ratios.ownCpu, ' ms', 3))],
    ['own: stand-in CPU per request', ...col((s) => fmt(s.own?.standInCpuMs, ' ms', 3))],
    [
      'own: replies',
      ...col((s) =>
        s.own
          ? Object.entries(s.own.phases)
              .map(([p, n]) => `${p} ${n}`)
              .join(', ')
          : '–',
      ),
    ],
    ['own, same call repeated: req/s', ...col((s) => withRatio(s.ownRepeat?.rps, s.ratios.ownRepeatRps))],
    ['own repeated: p50 / p99', ...col((s) => lat(s.ownRepeat))],
    [
      'own repeated: server CPU per request',
      ...col((s) => withRatio(s.ownRepeat?.cpuMs, s.ratios.ownRepeatCpu, ' ms', 3)),
    ],
    [
      'own repeated: replies',
      ...col((s) =>
        s.ownRepeat
          ? Object.entries(s.ownRepeat.phases)
              .map(([p, n]) => `${p} ${n}`)
              .join(', ')
          : '–',
      ),
    ],
    ['own: upstream requests per call', ...col((s) => fmt(s.upstreamPerCall, '', 2))],
    [
      'upstream requests per poll: max / mean',
      ...col((s) => (s.polls ? `${fmt(s.polls.maxPerPoll)} / ${fmt(s.polls.meanPerPoll, '', 2)}` : '–')),
    ],
    ['artefact size', ...col((s) => `${fmt(s.bytes / 1024, ' KiB')}`)],
  ];
  const lines = [
    renderTable(['', ...summaries.map((s) => s.name)], rows),
    '',
    `ratios are to the bare node:http baseline measured in the same run; load average ${load.before.join(' ')} before, ${load.after.join(' ')} after (${cpus().length} CPUs)`,
    '',
    'targets (the goals of docs/performance.md; ✔ met, ✖ missed, ? not measured; a miss does not fail the run):',
    ...checks.map(
      (c) => `  ${c.met === undefined ? '?' : c.met ? '✔' : '✖'} ${c.target}: ${c.check}: ${c.value}`,
    ),
    `${checks.filter((c) => c.met).length} of ${checks.length} targets met; docs/performance.md ("Targets") says why each missed one is missed and what it costs.`,
  ];
  void base;
  return lines.join('\n');
}

function renderSideBySide(s: SideBySide, count: number): string {
  const x = (a?: number, b?: number) => (a !== undefined && b ? `${(a / b).toFixed(2)}×` : '–');
  const loads = (m: Record<string, number | undefined>) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${fmt(v, ' ms')}`)
      .join(', ');
  return (
    `\n${count} sidecars vs one collection sidecar (median of ${s.rounds} rounds)\n` +
    renderTable(
      ['figure', 'bare node:http', `${count} sidecars`, 'collection', 'goal'],
      [
        [
          'idle memory (sum of RSS)',
          fmt(s.idleMiB.bare, ' MiB', 1),
          fmt(s.idleMiB.four, ' MiB', 1),
          `${fmt(s.idleMiB.collection, ' MiB', 1)} (${x(s.idleMiB.collection, s.idleMiB.bare)} bare, ${x(s.idleMiB.four, s.idleMiB.collection)} less)`,
          '≤ 1.15× bare, ≥ 3.5× less',
        ],
        [
          'cold start, every plugin answering',
          fmt(s.coldMs.bare, ' ms'),
          fmt(s.coldMs.four, ' ms'),
          `${fmt(s.coldMs.collection, ' ms')} (${x(s.coldMs.collection, s.coldMs.bare)} bare)`,
          '≤ 1.5× bare',
        ],
        [
          'one plugin node: round trips, p50',
          '–',
          `${fmt(s.dispatch.four.trips, '', 2)}, ${fmt(s.dispatch.four.p50Ms, ' ms', 1)}`,
          `${s.dispatch.collection.trips}, ${fmt(s.dispatch.collection.p50Ms, ' ms', 1)}`,
          'fewer, lower',
        ],
        ['first own call (loadMs)', '–', loads(s.loadMs.four), loads(s.loadMs.collection), 'no worse'],
        [
          `peak RSS, ${s.busyCalls} executions over all plugins`,
          '–',
          fmt(s.peakMiB.four, ' MiB', 1),
          fmt(s.peakMiB.collection, ' MiB', 1),
          'under the limit',
        ],
      ],
    ) +
    `\ncold start and idle memory: plain launches; first own calls, round trips and peak: ${
      s.memoryModel?.startsWith('cgroup')
        ? `each sidecar in a memory cgroup of its manifest's limit (${s.memoryModel.split(' ').slice(0, 2).join(' ')})`
        : 'without memory limits (no memory cgroup can be made here)'
    }`
  );
}
