// Runs the side by side of npm run bench -- --baseline <rev> [--candidate <rev>] (see revision-compare.ts).
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
    /** Another revision's builds in place of the working tree's (--candidate), with its own node flags. */
    candidate?: { revision: Revision; nodeArgs: (app: string) => string[] };
  },
): Promise<Sample[]> {
  const started: Target[] = [];
  try {
    const baseline = await revisionTargets(current, revision, options.nodeArgs, options.log);
    started.push(...baseline.values());
    let mine = new Map(current.map((t) => [t.name, t]));
    if (options.candidate) {
      const { revision: other, nodeArgs } = options.candidate;
      mine = await revisionTargets(current, other, nodeArgs, options.log);
      started.push(...mine.values());
    }
    const apps = [...baseline.keys()].filter((app) => mine.has(app));
    const against = options.candidate ? ` (current: ${options.candidate.revision.rev})` : '';
    options.log(
      `side by side with ${revision.rev}${against}: ${apps.join(', ')}, ${options.rounds} samples a side`,
    );
    const samples: Sample[] = [];
    for (const turn of alternation(apps, options.rounds)) {
      const target = (turn.side === 'current' ? mine : baseline).get(turn.app)!;
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
    await Promise.all(started.map((t) => t.standIns?.close()));
  }
}

/**
 * The sidecars of a revision's builds that the working tree also has, each with the revision's own stand-ins and
 * node flags, and the working tree's templates (the same bodies on both sides).
 */
async function revisionTargets(
  current: Target[],
  revision: Revision,
  nodeArgs: (app: string) => string[],
  log: (t: string) => void,
): Promise<Map<string, Target>> {
  const targets = new Map<string, Target>();
  for (const built of revision.apps) {
    const mine = current.find((t) => t.name === built.app);
    if (!mine) continue;
    const standIns = await startStandIns(built.standIns).catch((err: Error) => {
      log(`  ${built.app}@${revision.rev}: stand-ins: ${err.message}; left out`);
    });
    if (!standIns) continue;
    targets.set(built.app, {
      ...mine,
      name: `${built.app}@${revision.rev}`,
      entry: built.entry,
      env: standIns.env,
      nodeArgs: nodeArgs(built.app),
      standIns,
    });
  }
  return targets;
}
