import type { ColdRun } from './cold-start.js';
import type { LoadFigures, LoadRun } from './load.js';
import { max, median, ratio } from './stats.js';
import type { PollCost } from './upstream-cost.js';

export interface LoadSummary {
  rps?: number;
  p50?: number;
  p99?: number;
  /** Server CPU ms per reply (median over runs). */
  cpuMs?: number;
  /** Stand-in CPU ms per reply (median over runs). */
  standInCpuMs?: number;
}

export interface TargetSummary {
  name: string;
  kind: 'baseline' | 'plugin' | 'probe';
  coldForeignMs?: number;
  coldOwnMs?: number;
  coldStarts: { foreign: number; own: number; failed: number };
  /** Median VmRSS a moment after the first foreign reply (module not loaded). */
  idleRssKiB?: number;
  /** Median VmRSS a moment after the first own reply (plugin module loaded). */
  ownRssKiB?: number;
  /** Highest VmHWM over the load runs. */
  peakRssKiB?: number;
  foreign?: LoadSummary;
  own?: LoadSummary & { phases: Record<string, number> };
  ownRepeat?: LoadSummary & { phases: Record<string, number> };
  upstreamPerCall?: number;
  polls?: { maxPerPoll?: number; meanPerPoll?: number; polls: number; bodies: string[] };
  bytes: number;
  ratios: {
    coldForeign?: number;
    coldOwn?: number;
    idleRss?: number;
    ownRss?: number;
    peakRss?: number;
    foreignRps?: number;
    ownRps?: number;
    ownRepeatRps?: number;
    foreignCpu?: number;
    ownCpu?: number;
    ownRepeatCpu?: number;
  };
}

const defined = (values: Array<number | undefined>): number[] =>
  values.filter((v): v is number => v !== undefined);

function loadSummary(figures: Array<LoadFigures | undefined>): LoadSummary | undefined {
  const present = figures.filter((f): f is LoadFigures => f !== undefined);
  if (present.length === 0) return undefined;
  return {
    rps: median(present.map((f) => f.rps)),
    p50: median(present.map((f) => f.p50)),
    p99: median(present.map((f) => f.p99)),
    cpuMs: median(defined(present.map((f) => f.cpuMsPerRequest))),
    standInCpuMs: median(defined(present.map((f) => f.standInCpuMsPerRequest))),
  };
}

export function summarizeTarget(
  name: string,
  kind: 'baseline' | 'plugin' | 'probe',
  bytes: number,
  cold: ColdRun[],
  loads: LoadRun[],
  polls: PollCost[],
): TargetSummary {
  const ok = (template: 'foreign' | 'own') =>
    cold.filter((r) => r.template === template && r.ms !== undefined);
  const withPhases = (figures: Array<LoadFigures | undefined>) => {
    const present = figures.filter((f): f is LoadFigures => f !== undefined);
    const summary = loadSummary(present);
    if (!summary) return undefined;
    const phases: Record<string, number> = {};
    for (const f of present) for (const [p, n] of Object.entries(f.phases)) phases[p] = (phases[p] ?? 0) + n;
    return { ...summary, phases };
  };
  const measuredPolls = polls.filter((p) => p.polls > 0);
  return {
    name,
    kind,
    coldForeignMs: median(ok('foreign').map((r) => r.ms!)),
    coldOwnMs: median(ok('own').map((r) => r.ms!)),
    coldStarts: {
      foreign: ok('foreign').length,
      own: ok('own').length,
      failed: cold.filter((r) => r.ms === undefined).length,
    },
    idleRssKiB: median(defined(ok('foreign').map((r) => r.rssKiB))),
    ownRssKiB: median(defined(ok('own').map((r) => r.rssKiB))),
    peakRssKiB: max(defined(loads.map((l) => l.peakKiB))),
    foreign: loadSummary(loads.map((l) => l.foreign)),
    own: withPhases(loads.map((l) => l.own)),
    ownRepeat: withPhases(loads.map((l) => l.ownRepeat)),
    upstreamPerCall: median(defined(loads.map((l) => l.upstreamPerCall))),
    polls:
      polls.length === 0
        ? undefined
        : {
            maxPerPoll: max(defined(measuredPolls.map((p) => p.maxPerPoll))),
            meanPerPoll:
              measuredPolls.length === 0
                ? undefined
                : measuredPolls.reduce((a, p) => a + (p.meanPerPoll ?? 0) * p.polls, 0) /
                  measuredPolls.reduce((a, p) => a + p.polls, 0),
            polls: measuredPolls.reduce((a, p) => a + p.polls, 0),
            bodies: polls.map((p) => p.body),
          },
    bytes,
    ratios: {},
  };
}

/** Fills each plugin's ratios to the baseline. */
export function addRatios(base: TargetSummary, plugin: TargetSummary): void {
  plugin.ratios = {
    coldForeign: ratio(plugin.coldForeignMs, base.coldForeignMs),
    coldOwn: ratio(plugin.coldOwnMs, base.coldOwnMs),
    idleRss: ratio(plugin.idleRssKiB, base.idleRssKiB),
    ownRss: ratio(plugin.ownRssKiB, base.idleRssKiB),
    peakRss: ratio(plugin.peakRssKiB, base.peakRssKiB),
    foreignRps: ratio(plugin.foreign?.rps, base.foreign?.rps),
    ownRps: ratio(plugin.own?.rps, base.own?.rps),
    ownRepeatRps: ratio(plugin.ownRepeat?.rps, base.own?.rps),
    foreignCpu: ratio(plugin.foreign?.cpuMs, base.foreign?.cpuMs),
    ownCpu: ratio(plugin.own?.cpuMs, base.own?.cpuMs),
    ownRepeatCpu: ratio(plugin.ownRepeat?.cpuMs, base.own?.cpuMs),
  };
}

export interface TargetCheck {
  target: string;
  check: string;
  value: string;
  met: boolean | undefined;
  note?: string;
}

/** The targets, per plugin. `met` is undefined when the figure could not be measured. */
export function checkTargets(base: TargetSummary, p: TargetSummary): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const add = (check: string, value: string, met: boolean | undefined, note?: string): void => {
    checks.push({ target: p.name, check, value, met, ...(note && { note }) });
  };
  if (p.kind !== 'probe') {
    for (const [label, ms, r] of [
      ['cold start, foreign template ≤ 2× baseline and < 150 ms', p.coldForeignMs, p.ratios.coldForeign],
      [
        'cold start, own template (incl. lazy load) ≤ 2× baseline and < 150 ms',
        p.coldOwnMs,
        p.ratios.coldOwn,
      ],
    ] as const) {
      add(
        label,
        `${ms?.toFixed(0) ?? '–'} ms, ${r?.toFixed(2) ?? '–'}×`,
        ms === undefined || r === undefined ? undefined : ms < 150 && r <= 2,
      );
    }
    add(
      'idle RSS ≤ 1.5× baseline',
      `${p.idleRssKiB === undefined ? '–' : (p.idleRssKiB / 1024).toFixed(1)} MiB, ${p.ratios.idleRss?.toFixed(2) ?? '–'}×`,
      p.ratios.idleRss === undefined ? undefined : p.ratios.idleRss <= 1.5,
    );
  }
  const ownRps = p.own?.rps;
  add(
    'own-template throughput ≥ 0.5× baseline, p99 < 10 ms (16 connections)',
    `${ownRps?.toFixed(0) ?? '–'} req/s (${p.ratios.ownRps?.toFixed(2) ?? '–'}×), p99 ${p.own?.p99 ?? '–'} ms`,
    p.ratios.ownRps === undefined || p.own?.p99 === undefined
      ? undefined
      : p.ratios.ownRps >= 0.5 && p.own.p99 < 10,
  );
  if (p.polls)
    add(
      'at most one upstream request per node per poll',
      `max ${p.polls.maxPerPoll ?? '–'}, mean ${p.polls.meanPerPoll?.toFixed(2) ?? '–'} over ${p.polls.polls} polls`,
      p.polls.maxPerPoll === undefined ? undefined : p.polls.maxPerPoll <= 1,
    );
  return checks;
}
