import { join } from 'node:path';
import { FOREIGN_PLUGIN, freshUid, requestBody } from './bodies.js';
import { firstReply } from './contract-client.js';
import { freePort, logLines, memoryStatus, sleep } from './process-control.js';
import { spawnTarget, type RunContext, type Target } from './targets.js';

export type TemplateKind = 'foreign' | 'own';

export interface ColdRun {
  target: string;
  template: TemplateKind;
  /** Process spawn → first 200 reply to an authenticated template.execute. */
  ms?: number;
  status?: number;
  phase?: string;
  message?: string;
  /** VmRSS `settleMs` after the first reply (KiB). */
  rssKiB?: number;
  /** The sidecar's own `startupMs` (start of startPlugin → listening) from its log. */
  startupMs?: number;
  /** The kit's `loadMs` (lazy plugin module load) from its log, own template only. */
  loadMs?: number;
  error?: string;
}

export function ownPlugin(target: Target): Record<string, unknown> {
  return { [target.key]: target.own?.config ?? {} };
}

/** Spawns the target, calls it until the first reply, reads its RSS after a moment, stops it. */
export async function coldStart(
  target: Target,
  template: TemplateKind,
  ctx: RunContext,
  options: { settleMs: number; timeoutMs?: number; label: string },
): Promise<ColdRun> {
  const port = await freePort();
  const body = requestBody(template === 'own' ? ownPlugin(target) : FOREIGN_PLUGIN, freshUid());
  const logFile = join(ctx.logDir, `${target.name}-cold-${template}-${options.label}.log`);
  const proc = spawnTarget(target, ctx, port, logFile, 'plain');
  const run: ColdRun = { target: target.name, template };
  try {
    const reply = await firstReply(port, ctx.token, body, proc.spawnedAt + (options.timeoutMs ?? 15_000));
    const elapsed = performance.now() - proc.spawnedAt;
    run.status = reply.status;
    run.phase = reply.json?.node?.phase;
    run.message = reply.json?.node?.message;
    if (reply.status === 200) run.ms = elapsed;
    else run.error = `HTTP ${reply.status}: ${reply.text.slice(0, 200)}`;
    await sleep(options.settleMs);
    run.rssKiB = memoryStatus(proc.pid)?.rssKiB;
  } catch (err) {
    run.error = (err as Error).message;
  } finally {
    await proc.stop();
  }
  const lines = logLines(logFile);
  const listening = lines.find((l) => l.msg === 'listening');
  if (typeof listening?.startupMs === 'number') run.startupMs = listening.startupMs;
  const loaded = lines.find((l) => l.msg === 'plugin module loaded');
  if (typeof loaded?.loadMs === 'number') run.loadMs = loaded.loadMs;
  return run;
}
