import type { ArgoNodeResult } from '@app/argo-agent/argo-reply.js';
import { decodeReply, type DecodedReply } from '@app/argo-agent/plugin-rpc-client.js';
import type { Exchange } from './wire-tap.js';

/** How a 200 body fares in the agent's decoder, split by the rule that owns each kind of problem. */
export type ReplyCheck =
  | { ok: true; reply: DecodedReply | null; node?: ArgoNodeResult }
  | { ok: false; rule: 'json-body' | 'requeue-format'; problem: string };

/** Errors of the `requeue` field: its type (Go names the field) or time.ParseDuration's. */
const REQUEUE_ERROR = /ExecuteTemplateReply\.requeue |^time: /;

export function checkReply(exchange: Exchange): ReplyCheck {
  if (exchange.error) {
    const problem = exchange.error.startsWith('reply larger')
      ? exchange.error
      : `body cut short (${exchange.error})`;
    return { ok: false, rule: 'json-body', problem };
  }
  try {
    const reply = decodeReply(exchange.text);
    return { ok: true, reply, node: reply?.node };
  } catch (err) {
    const problem = (err as Error).message;
    return REQUEUE_ERROR.test(problem)
      ? { ok: false, rule: 'requeue-format', problem }
      : { ok: false, rule: 'json-body', problem };
  }
}

/** Every 200 exchange with its check. */
export function checked200s(exchanges: Exchange[]): Array<{ exchange: Exchange; check: ReplyCheck }> {
  return exchanges
    .filter((e) => e.status === 200)
    .map((exchange) => ({ exchange, check: checkReply(exchange) }));
}
