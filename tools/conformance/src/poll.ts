import { isFinalPhase, isNodePhase } from '@app/contract';
import type { ArgoNodeResult } from '@app/argo-agent/argo-reply.js';
import { lastStatus, type AgentSession, type CallOutcome } from './agent-session.js';
import { sleep } from './excerpt.js';
import type { Purpose } from './wire-tap.js';

/** How a node ends when the agent keeps calling as told (requeue honoured). */
export type EndKind = 'final' | 'hang' | 'not-executed' | 'error' | 'timeout';

export interface PollOutcome {
  kind: EndKind;
  node?: ArgoNodeResult;
  calls: CallOutcome[];
  ms: number;
}

export interface PollOptions {
  /** Factor applied to every requeue before waiting. */
  timeScale: number;
  timeoutMs: number;
  /** The run stopped: no more waiting. */
  signal?: AbortSignal;
}

/**
 * Calls until the node is final, waiting each `requeue` (scaled). Running/Pending without a requeue ends
 * the poll as `hang`: the agent would never call again.
 */
export async function pollUntilFinal(
  session: AgentSession,
  purpose: Purpose,
  label: string,
  body: string,
  options: PollOptions,
): Promise<PollOutcome> {
  const started = performance.now();
  const calls: CallOutcome[] = [];
  const done = (kind: EndKind, node?: ArgoNodeResult): PollOutcome => ({
    kind,
    node,
    calls,
    ms: Math.round(performance.now() - started),
  });
  for (;;) {
    const call = await session.call(purpose, label, body);
    calls.push(call);
    if (call.error) return done('error');
    const node = call.reply?.node;
    if (!node) return done('not-executed');
    if (isNodePhase(node.phase) && isFinalPhase(node.phase)) return done('final', node);
    const requeueMs = call.reply?.requeueMs ?? 0;
    if (!(requeueMs > 0)) return done('hang', node);
    const wait = Math.max(20, requeueMs * options.timeScale);
    if (performance.now() - started + wait > options.timeoutMs) return done('timeout', node);
    await sleep(wait, options.signal);
    if (options.signal?.aborted) return done('timeout', node);
  }
}

/** A comparable summary of how a node ended: kind, phase, and the HTTP status of a failed call. */
export function endKey(p: PollOutcome): string {
  const last = p.calls.at(-1);
  if (p.kind === 'error' && last) return `error:${lastStatus(last) ?? 'no-reply'}`;
  return `${p.kind}:${p.node?.phase ?? ''}`;
}

export function describeEnd(p: PollOutcome): string {
  const last = p.calls.at(-1);
  switch (p.kind) {
    case 'final':
      return `${p.node?.phase}${p.node?.message ? `: ${p.node.message}` : ''}`;
    case 'hang':
      return `${p.node?.phase} without requeue: the agent would never call again`;
    case 'not-executed':
      return 'answered as not its template ({} or null, or 404)';
    case 'error':
      return `node Failed by the agent: ${last?.error?.message ?? 'error'}`;
    case 'timeout':
      return `still ${p.node?.phase} when the poll timeout passed`;
  }
}
