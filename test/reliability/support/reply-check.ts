import { isFinalPhase, isNodePhase } from '@app/contract';
import { decodeReply, PluginCallError } from '@app/argo-agent';
import type { RawOutcome } from './raw-http.js';

/** The statuses a plugin may answer a bad request with (everything else fails the node or is a bug). */
export const REFUSALS = [400, 403, 404, 413] as const;

/**
 * What is wrong with a reply to an arbitrary request, or undefined when it is acceptable: one of 400/403/404/413,
 * or 200 with a body Argo's agent decodes into a valid reply (`{}`/`null`, or a node with a known phase where
 * Running/Pending carry a positive Go-duration requeue and final phases carry none).
 */
export function replyProblem(outcome: RawOutcome): string | undefined {
  if (outcome.kind === 'error') return `no reply: ${outcome.code ?? ''} ${outcome.error}`.trim();
  const { status, text } = outcome;
  if ((REFUSALS as readonly number[]).includes(status)) return undefined;
  if (status !== 200) return `status ${status}: ${text.slice(0, 200)}`;
  return bodyProblem(text);
}

/** Problems of a 200 body, judged by the local agent's decoder (the Go client's rules) and the reply invariants. */
export function bodyProblem(text: string): string | undefined {
  let decoded;
  try {
    decoded = decodeReply(text);
  } catch (err) {
    return `200 body the agent cannot decode (${(err as PluginCallError).message}): ${text.slice(0, 200)}`;
  }
  if (decoded === null || decoded.node === undefined) {
    if (decoded?.requeue !== undefined) return `requeue without a node: ${text.slice(0, 200)}`;
    return undefined;
  }
  const { phase } = decoded.node;
  if (!isNodePhase(phase)) return `node phase ${JSON.stringify(phase)} is not an Argo phase`;
  if (isFinalPhase(phase)) {
    if (decoded.requeue !== undefined) return `${phase} reply carries requeue ${decoded.requeue}`;
  } else if (!(decoded.requeueMs !== undefined && decoded.requeueMs > 0)) {
    return `${phase} reply without a positive requeue: ${text.slice(0, 200)}`;
  }
  return undefined;
}
