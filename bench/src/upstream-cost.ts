import { join } from 'node:path';
import { freshUid, requestBody } from './bodies.js';
import { firstReply, postExecute } from './contract-client.js';
import { freePort } from './process-control.js';
import type { PollBody } from './plan.js';
import { spawnTarget, type RunContext, type Target } from './targets.js';

export interface PollCost {
  target: string;
  body: string;
  nodes: number;
  /** Upstream requests per node for the first call (the trigger). */
  triggerPerNode?: number;
  /** Requeued calls made while nodes were Running/Pending. */
  polls: number;
  /** Upstream requests made by those polls, per poll. */
  meanPerPoll?: number;
  maxPerPoll?: number;
  /** Polls that made more than one upstream request, with the phase before → after. */
  over: Array<{ requests: number; transition: string }>;
  /** Phases after the last round. */
  finalPhases: Record<string, number>;
  error?: string;
}

const ACTIVE = new Set(['Running', 'Pending']);

/**
 * N executions of one body, started together (16 at a time, like the agent's task workers), then polled
 * round after round with identical requests (a requeue), one node at a time, reading the stand-ins' counters
 * around each call: requests per poll per node, exactly.
 */
export async function pollCost(
  target: Target,
  poll: PollBody,
  ctx: RunContext,
  options: { nodes: number; rounds: number; roundGapMs: number },
): Promise<PollCost> {
  const standIns = target.standIns!;
  const count = async (): Promise<number> => {
    const n = await standIns.count();
    if (n === undefined) throw new Error('the stand-ins have no request counter');
    return n;
  };
  const cost: PollCost = {
    target: target.name,
    body: poll.name,
    nodes: options.nodes,
    polls: 0,
    over: [],
    finalPhases: {},
  };
  const port = await freePort();
  const proc = spawnTarget(target, ctx, port, join(ctx.logDir, `${target.name}-polls-${poll.name}.log`));
  try {
    const bodies = Array.from({ length: options.nodes }, () =>
      requestBody({ [target.key]: poll.config }, freshUid()),
    );
    const phases: string[] = new Array<string>(options.nodes).fill('');
    await firstReply(
      port,
      ctx.token,
      requestBody({ 'other-plugin': {} }, freshUid()),
      performance.now() + 15_000,
    );
    const before = await count();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < bodies.length) {
        const i = next++;
        const reply = await postExecute(port, ctx.token, bodies[i]);
        phases[i] = reply.json?.node?.phase ?? `HTTP ${reply.status}`;
        if (phases[i] === 'Failed' && cost.error === undefined)
          cost.error = `first call Failed: ${reply.json?.node?.message ?? ''}`;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    cost.triggerPerNode = ((await count()) - before) / options.nodes;
    const perPoll: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const active = phases.map((p, i) => (ACTIVE.has(p) ? i : -1)).filter((i) => i >= 0);
      if (active.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, options.roundGapMs));
      for (const i of active) {
        const c0 = await count();
        const reply = await postExecute(port, ctx.token, bodies[i]);
        const requests = (await count()) - c0;
        const phase = reply.json?.node?.phase ?? `HTTP ${reply.status}`;
        perPoll.push(requests);
        if (requests > 1) cost.over.push({ requests, transition: `${phases[i]} → ${phase}` });
        phases[i] = phase;
      }
    }
    cost.polls = perPoll.length;
    if (perPoll.length > 0) {
      cost.meanPerPoll = perPoll.reduce((a, b) => a + b, 0) / perPoll.length;
      cost.maxPerPoll = Math.max(...perPoll);
    }
    for (const p of phases) cost.finalPhases[p] = (cost.finalPhases[p] ?? 0) + 1;
  } catch (err) {
    cost.error = (err as Error).message;
  } finally {
    await proc.stop(5000);
  }
  return cost;
}
