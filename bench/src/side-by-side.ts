// Four single sidecars against one collection sidecar, as an agent pod carries them (docs/collection.md).
import { join } from 'node:path';
import { FOREIGN_PLUGIN, freshUid, requestBody } from './bodies.js';
import { ownPlugin } from './cold-start.js';
import { firstReply, postExecute } from './contract-client.js';
import { freePort, logLines, memoryStatus, sleep, type Spawned } from './process-control.js';
import { median, percentile } from './stats.js';
import { spawnTarget, type RunContext, type Target } from './targets.js';

export interface SideBySide {
  rounds: number;
  /** Sum of RSS after start (MiB, median of rounds). */
  idleMiB: { bare?: number; four?: number; collection?: number };
  /** Spawn until every plugin answers (ms, median of rounds; four start at once). */
  coldMs: { bare?: number; four?: number; collection?: number };
  /** The agent's round of offers for one plugin node: round trips (mean) and time (p50, ms). */
  dispatch: { four: { trips?: number; p50Ms?: number }; collection: { trips: number; p50Ms?: number } };
  /** The kit's `loadMs` of each plugin's first own call. */
  loadMs: { four: Record<string, number | undefined>; collection: Record<string, number | undefined> };
  /** Peak RSS (sum of VmHWM, MiB) after `busyCalls` executions spread over the four plugins, 16 at a time. */
  peakMiB: { four?: number; collection?: number };
  busyCalls: number;
  /** How the busy launches were put under their memory limits (`cgroup v1 160 MiB`, `none …`). */
  memoryModel?: string;
}

const mibOf = (pids: number[]): number =>
  pids.reduce((n, pid) => n + (memoryStatus(pid)?.rssKiB ?? 0), 0) / 1024;
const peakOf = (pids: number[]): number =>
  pids.reduce((n, pid) => n + (memoryStatus(pid)?.hwmKiB ?? 0), 0) / 1024;

async function start(
  t: Target,
  ctx: RunContext,
  label: string,
  launch: 'pod' | 'plain',
): Promise<{ proc: Spawned; port: number }> {
  const port = await freePort();
  return { proc: spawnTarget(t, ctx, port, join(ctx.logDir, `${t.name}-side-${label}.log`), launch), port };
}

async function answered(p: { proc: Spawned; port: number }, ctx: RunContext): Promise<number> {
  await firstReply(p.port, ctx.token, requestBody(FOREIGN_PLUGIN, freshUid()), p.proc.spawnedAt + 15_000);
  return performance.now() - p.proc.spawnedAt;
}

async function inParallel(
  count: number,
  width: number,
  task: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** `apps`: the four single plugins (with their stand-ins); `collection` hosts them all. */
export async function sideBySide(
  baseline: Target,
  apps: Target[],
  collection: Target,
  ctx: RunContext,
  options: { rounds: number; settleMs: number; nodes: number; busyCalls: number },
): Promise<SideBySide> {
  const idle = { bare: [] as number[], four: [] as number[], collection: [] as number[] };
  const cold = { bare: [] as number[], four: [] as number[], collection: [] as number[] };
  const out: SideBySide = {
    rounds: options.rounds,
    idleMiB: {},
    coldMs: {},
    dispatch: { four: {}, collection: { trips: 1 } },
    loadMs: { four: {}, collection: {} },
    peakMiB: {},
    busyCalls: options.busyCalls,
  };
  const own = (t: Target) => ownPlugin(t);
  // Every round: cold start and idle RSS of plain launches (a cgroup hop would add its own ~16 ms to each start).
  for (let r = 0; r < options.rounds; r++) {
    const bare = await start(baseline, ctx, `bare-${r}`, 'plain');
    cold.bare.push(await answered(bare, ctx));
    await sleep(options.settleMs);
    idle.bare.push(mibOf([bare.proc.pid]));
    await bare.proc.stop();

    const four = await Promise.all(apps.map((t) => start(t, ctx, `four-${r}`, 'plain')));
    cold.four.push(Math.max(...(await Promise.all(four.map((p) => answered(p, ctx))))));
    await sleep(options.settleMs);
    idle.four.push(mibOf(four.map((p) => p.proc.pid)));
    await Promise.all(four.map((p) => p.proc.stop()));

    const c = await start(collection, ctx, `collection-${r}`, 'plain');
    cold.collection.push(await answered(c, ctx));
    await sleep(options.settleMs);
    idle.collection.push(mibOf([c.proc.pid]));
    await c.proc.stop();
  }

  // Once, as in the pod (each under its memory limit): first own calls, the agent's round of offers, and peak.
  const four = await Promise.all(apps.map((t) => start(t, ctx, 'four-busy', 'pod')));
  await Promise.all(four.map((p) => answered(p, ctx)));
  for (const [i, t] of apps.entries())
    await postExecute(four[i].port, ctx.token, requestBody(own(t), freshUid()));
  apps.forEach((t, i) => {
    out.loadMs.four[t.name] = logLines(four[i].proc.logFile).find((l) => l.msg === 'plugin module loaded')
      ?.loadMs as number | undefined;
  });
  const trips: number[] = [];
  const times: number[] = [];
  for (let n = 0; n < options.nodes; n++) {
    const t = apps[n % apps.length];
    const body = requestBody(own(t), freshUid());
    const order = four.map((p) => p).sort(() => Math.random() - 0.5);
    const t0 = performance.now();
    let k = 0;
    for (const p of order) {
      k++;
      const reply = await postExecute(p.port, ctx.token, body);
      if (reply.json && Object.keys(reply.json).length > 0) break;
    }
    times.push(performance.now() - t0);
    trips.push(k);
  }
  out.dispatch.four = {
    trips: trips.reduce((a, b) => a + b, 0) / trips.length,
    p50Ms: percentile(times, 50),
  };
  await inParallel(options.busyCalls, 16, (n) =>
    postExecute(four[n % apps.length].port, ctx.token, requestBody(own(apps[n % apps.length]), freshUid())),
  );
  out.peakMiB.four = peakOf(four.map((p) => p.proc.pid));
  out.memoryModel = four[0]?.proc.memoryModel;
  await Promise.all(four.map((p) => p.proc.stop()));

  const c = await start(collection, ctx, 'collection-busy', 'pod');
  await answered(c, ctx);
  for (const t of apps) await postExecute(c.port, ctx.token, requestBody(own(t), freshUid()));
  for (const l of logLines(c.proc.logFile).filter((l) => l.msg === 'plugin module loaded'))
    out.loadMs.collection[String(l.plugin)] = l.loadMs as number | undefined;
  const collectionTimes: number[] = [];
  for (let n = 0; n < options.nodes; n++) {
    const body = requestBody(own(apps[n % apps.length]), freshUid());
    const t0 = performance.now();
    await postExecute(c.port, ctx.token, body);
    collectionTimes.push(performance.now() - t0);
  }
  out.dispatch.collection.p50Ms = percentile(collectionTimes, 50);
  await inParallel(options.busyCalls, 16, (n) =>
    postExecute(c.port, ctx.token, requestBody(own(apps[n % apps.length]), freshUid())),
  );
  out.peakMiB.collection = peakOf([c.proc.pid]);
  await c.proc.stop();

  for (const k of ['bare', 'four', 'collection'] as const) {
    out.idleMiB[k] = median(idle[k]);
    out.coldMs[k] = median(cold[k]);
  }
  return out;
}
