// The side by side of npm run bench -- --baseline <rev>: cold start and idle memory of the same sidecars built
// from that revision and from the working tree, sampled alternately in one run.
import { percentile, median } from './stats.js';
import { fmt, mib, renderTable } from './table.js';

export type Side = 'baseline' | 'current';

export interface Turn {
  round: number;
  app: string;
  side: Side;
}

/**
 * The order of the samples: every round takes each app once from each side, the two next to each other; the
 * side that goes first alternates from one round to the next and the apps rotate, so a drift of the machine's
 * load falls on both sides alike.
 */
export function alternation(apps: readonly string[], rounds: number): Turn[] {
  const turns: Turn[] = [];
  for (let round = 0; round < rounds; round++) {
    const sides: Side[] = round % 2 === 0 ? ['baseline', 'current'] : ['current', 'baseline'];
    for (let k = 0; k < apps.length; k++) {
      const app = apps[(k + round) % apps.length];
      for (const side of sides) turns.push({ round, app, side });
    }
  }
  return turns;
}

export interface Sample extends Turn {
  /** The template of the first call: another plugin's (what every sidecar does) or the sidecar's own. */
  template?: 'foreign' | 'own';
  /** Spawn → first 200 reply (ms). */
  ms?: number;
  /** VmRSS after the settle time (KiB). */
  rssKiB?: number;
}

export interface Compared {
  app: string;
  metric: Metric;
  unit: 'ms' | 'MiB';
  n: { baseline: number; current: number };
  baseline?: number;
  current?: number;
  /** current − baseline (medians). */
  difference?: number;
  /** The larger interquartile range of the two sides: a difference within it is noise. */
  spread?: number;
}

/**
 * `cold start` and `idle memory` after a foreign template's call; `cold start, own` and `memory after own call`
 * after the sidecar's own template, which includes loading its plugin module and its first upstream calls.
 */
export type Metric = 'cold start' | 'idle memory' | 'cold start, own' | 'memory after own call';

const METRICS: ReadonlyArray<{ metric: Metric; template: 'foreign' | 'own'; of: 'ms' | 'rss' }> = [
  { metric: 'cold start', template: 'foreign', of: 'ms' },
  { metric: 'idle memory', template: 'foreign', of: 'rss' },
  { metric: 'cold start, own', template: 'own', of: 'ms' },
  { metric: 'memory after own call', template: 'own', of: 'rss' },
];

const iqr = (values: number[]): number | undefined =>
  values.length === 0 ? undefined : percentile(values, 75)! - percentile(values, 25)!;

function compare(
  app: string,
  samples: Sample[],
  { metric, template, of: what }: (typeof METRICS)[number],
): Compared {
  const value = (s: Sample) => (what === 'ms' ? s.ms : mib(s.rssKiB));
  const of = (side: Side) =>
    samples
      .filter((s) => s.app === app && s.side === side && (s.template ?? 'foreign') === template)
      .flatMap((s) => value(s) ?? []);
  const [base, cur] = [of('baseline'), of('current')];
  const [baseline, current] = [median(base), median(cur)];
  const spreads = [iqr(base), iqr(cur)].filter((v): v is number => v !== undefined);
  return {
    app,
    metric,
    unit: what === 'ms' ? 'ms' : 'MiB',
    n: { baseline: base.length, current: cur.length },
    baseline,
    current,
    difference: baseline === undefined || current === undefined ? undefined : current - baseline,
    spread: spreads.length === 0 ? undefined : Math.max(...spreads),
  };
}

export function compareSamples(samples: Sample[]): Compared[] {
  const apps = [...new Set(samples.map((s) => s.app))];
  return apps.flatMap((app) => {
    const sampled = new Set(samples.filter((s) => s.app === app).map((s) => s.template ?? 'foreign'));
    return METRICS.filter((m) => sampled.has(m.template)).map((m) => compare(app, samples, m));
  });
}

export function renderComparison(
  rows: Compared[],
  baseline: { rev: string; commit: string },
  candidate?: { rev: string; commit: string },
): string {
  const digits = (r: Compared) => (r.unit === 'MiB' ? 1 : 0);
  const signed = (r: Compared) =>
    r.difference === undefined
      ? '–'
      : `${r.difference >= 0 ? '+' : ''}${fmt(r.difference, ` ${r.unit}`, digits(r))}`;
  const percent = (r: Compared) =>
    r.difference === undefined || !r.baseline ? '' : ` (${((100 * r.difference) / r.baseline).toFixed(0)} %)`;
  const table = renderTable(
    [
      'sidecar',
      'metric',
      'n',
      `baseline ${baseline.rev}`,
      candidate ? candidate.rev : 'current',
      'difference',
      'spread (IQR)',
      '',
    ],
    rows.map((r) => [
      r.app,
      r.metric,
      `${r.n.baseline}+${r.n.current}`,
      fmt(r.baseline, ` ${r.unit}`, digits(r)),
      fmt(r.current, ` ${r.unit}`, digits(r)),
      `${signed(r)}${percent(r)}`,
      fmt(r.spread, ` ${r.unit}`, digits(r)),
      r.difference !== undefined && r.spread !== undefined && Math.abs(r.difference) <= r.spread
        ? 'noise'
        : '',
    ]),
  );
  const current = candidate ? `${candidate.rev} (${candidate.commit.slice(0, 12)})` : 'the working tree';
  return `\nside by side: ${baseline.rev} (${baseline.commit.slice(0, 12)}) and ${current}, sampled alternately in this run (medians):\n${table}`;
}
