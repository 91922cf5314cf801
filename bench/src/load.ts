import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FOREIGN_PLUGIN, freshUid, requestBody } from './bodies.js';
import { firstReply } from './contract-client.js';
import { cpuTimeMs, freePort, logLines, memoryStatus, type Spawned } from './process-control.js';
import { spawnTarget, type RunContext, type Target } from './targets.js';

export interface LoadFigures {
  /** 2xx replies per second over the measured window. */
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Node phases of the replies (`{}` counts as "none"). */
  phases: Record<string, number>;
  /** CPU time of the server process per reply (ms): less sensitive to a busy machine than req/s. */
  cpuMsPerRequest?: number;
  /** CPU time of the upstream stand-ins per reply (ms), when the plugin called them. */
  standInCpuMsPerRequest?: number;
}

export interface LoadRun {
  target: string;
  foreign?: LoadFigures;
  /** Own template, a new workflow uid per request: every request is a new execution. */
  own?: LoadFigures;
  /** Own template, the same request over and over: ledger replay (Succeeded) or a status poll (Running). */
  ownRepeat?: LoadFigures;
  /** VmHWM at the end: the peak RSS of the process over start, warm-up and both loads (KiB). */
  peakKiB?: number;
  /** Highest VmRSS seen while sampling during the loads (KiB). */
  sampledMaxKiB?: number;
  /** VmRSS right after the loads (KiB). */
  endKiB?: number;
  /** Upstream requests per own-template call under load (stand-in counters). */
  upstreamPerCall?: number;
  error?: string;
}

const UID_SLOT = '00000000-uid0-slot-0000-000000000000';

interface LoadOptions {
  connections: number;
  durationS: number;
  warmupS: number;
  label: string;
}

const PHASE = /"phase":"(\w+)"/;

/** One measured window, with the CPU time the server (and its stand-ins) used during it. */
async function measured(
  pids: { server: number; standIns?: number },
  window: () => Promise<LoadFigures>,
): Promise<LoadFigures> {
  const cpu0 = cpuTimeMs(pids.server);
  const standIn0 = pids.standIns === undefined ? undefined : cpuTimeMs(pids.standIns);
  const figures = await window();
  const cpu1 = cpuTimeMs(pids.server);
  const standIn1 = pids.standIns === undefined ? undefined : cpuTimeMs(pids.standIns);
  const replies = figures.requests - figures.errors - figures.timeouts;
  if (replies > 0) {
    if (cpu0 !== undefined && cpu1 !== undefined) figures.cpuMsPerRequest = (cpu1 - cpu0) / replies;
    if (standIn0 !== undefined && standIn1 !== undefined)
      figures.standInCpuMsPerRequest = (standIn1 - standIn0) / replies;
  }
  return figures;
}

async function cannon(
  port: number,
  token: string,
  makeBody: () => string,
  connections: number,
  durationS: number,
): Promise<LoadFigures> {
  const phases: Record<string, number> = {};
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: durationS,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/template.execute',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: makeBody() }),
        onResponse: (status, body) => {
          // A regular expression, not JSON.parse: the load generator shares the machine with the server.
          const phase =
            status === 200 ? (PHASE.exec(body)?.[1] ?? (body === '{}' ? 'none' : 'other')) : `HTTP ${status}`;
          phases[phase] = (phases[phase] ?? 0) + 1;
        },
      },
    ],
  });
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.mean,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    phases,
  };
}

/**
 * One fresh process per run: a short warm-up and a measured window for the foreign template, then the same for
 * the own template with a new workflow uid per request (each request is a new execution: the plugin validates,
 * keys, records it in its ledger and does its first upstream work against the stand-in). RSS is sampled
 * throughout; VmHWM at the end is the peak.
 */
export async function loadRun(target: Target, ctx: RunContext, options: LoadOptions): Promise<LoadRun> {
  const run: LoadRun = { target: target.name };
  const port = await freePort();
  const logFile = join(ctx.logDir, `${target.name}-load-${options.label}.log`);
  const proc: Spawned = spawnTarget(target, ctx, port, logFile);
  let sampledMax = 0;
  const sampler = setInterval(() => {
    sampledMax = Math.max(sampledMax, memoryStatus(proc.pid)?.rssKiB ?? 0);
  }, 100);
  try {
    const foreignBody = requestBody(FOREIGN_PLUGIN, freshUid());
    const foreign = () => foreignBody;
    await firstReply(port, ctx.token, foreign(), performance.now() + 15_000);
    await cannon(port, ctx.token, foreign, options.connections, options.warmupS);
    const pids = { server: proc.pid, standIns: target.standIns?.pid };
    run.foreign = await measured(pids, () =>
      cannon(port, ctx.token, foreign, options.connections, options.durationS),
    );
    if (target.own && !target.ownProblem) {
      // A new uid per request; the body is built once and only the uid is swapped in.
      const template = requestBody({ [target.key]: target.own.config }, UID_SLOT);
      const own = () => template.replaceAll(UID_SLOT, freshUid());
      await cannon(port, ctx.token, own, options.connections, options.warmupS);
      const before = target.standIns ? await target.standIns.count() : undefined;
      run.own = await measured(pids, () =>
        cannon(port, ctx.token, own, options.connections, options.durationS),
      );
      const after = target.standIns ? await target.standIns.count() : undefined;
      if (before !== undefined && after !== undefined && run.own.requests > 0)
        run.upstreamPerCall = (after - before) / run.own.requests;
      const same = own();
      await firstReply(port, ctx.token, same, performance.now() + 30_000);
      await cannon(port, ctx.token, () => same, options.connections, options.warmupS);
      run.ownRepeat = await measured(pids, () =>
        cannon(port, ctx.token, () => same, options.connections, options.durationS),
      );
    }
    const status = memoryStatus(proc.pid);
    run.peakKiB = status?.hwmKiB;
    run.endKiB = status?.rssKiB;
    run.sampledMaxKiB = sampledMax || undefined;
  } catch (err) {
    run.error = (err as Error).message;
  } finally {
    clearInterval(sampler);
    await proc.stop();
  }
  const fatal = logLines(logFile).find((l) => l.level === 'error' || l.level === 'fatal');
  if (fatal && !run.error) run.error = `logged: ${String(fatal.msg).slice(0, 200)}`;
  // A sidecar that died under load (V8 heap limit, crash): say so rather than "connection refused".
  const died = /FATAL ERROR: [^\n]*/.exec(readFileSync(logFile, 'utf8'))?.[0];
  if (died) run.error = `process died: ${died}${run.error ? ` (then: ${run.error})` : ''}`;
  return run;
}
