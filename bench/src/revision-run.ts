// Runs the side by side of npm run bench -- --baseline <rev> (see revision-compare.ts).
import { coldStart } from './cold-start.js';
import { alternation, type Sample } from './revision-compare.js';
import type { Revision } from './revision.js';
import { startStandIns } from './stand-ins.js';
import type { RunContext, Target } from './targets.js';

/**
 * Cold start and memory of every sidecar both builds have, the baseline's with its own stand-ins and its own
 * manifest's node flags, `rounds` samples a side, taken alternately: a start answering the `foreign` template
 * (what every sidecar does, whatever its upstream), then one answering its own template (the same body on both
 * sides: the plugin module's lazy load and its first upstream calls), where the sidecar has one.
 */
const TEMPLATES = ['foreign', 'own'] as const;

export async function sampleRevision(
  current: Target[],
  revision: Revision,
  ctx: RunContext,
  options: {
    rounds: number;
    settleMs: number;
    nodeArgs: (app: string) => string[];
    log: (t: string) => void;
  },
): Promise<Sample[]> {
  const baseline = new Map<string, Target>();
  try {
    for (const built of revision.apps) {
      const mine = current.find((t) => t.name === built.app);
      if (!mine) continue;
      const standIns = await startStandIns(built.standIns).catch((err: Error) => {
        options.log(`  ${built.app}@${revision.rev}: stand-ins: ${err.message}; left out`);
      });
      if (!standIns) continue;
      baseline.set(built.app, {
        ...mine,
        name: `${built.app}@${revision.rev}`,
        entry: built.entry,
        env: standIns.env,
        nodeArgs: options.nodeArgs(built.app),
        standIns,
      });
    }
    const apps = [...baseline.keys()];
    options.log(`side by side with ${revision.rev}: ${apps.join(', ')}, ${options.rounds} samples a side`);
    const samples: Sample[] = [];
    for (const turn of alternation(apps, options.rounds)) {
      const target =
        turn.side === 'current' ? current.find((t) => t.name === turn.app)! : baseline.get(turn.app)!;
      for (const template of target.own && !target.ownProblem ? TEMPLATES : TEMPLATES.slice(0, 1)) {
        const run = await coldStart(target, template, ctx, {
          settleMs: options.settleMs,
          label: `${turn.side}-${turn.round}`,
        });
        if (run.error) options.log(`  ${target.name} ${template}: ${run.error}`);
        samples.push({ ...turn, template, ms: run.ms, rssKiB: run.rssKiB });
      }
    }
    return samples;
  } finally {
    await Promise.all([...baseline.values()].map((t) => t.standIns?.close()));
  }
}
