import { parseDuration } from '@app/contract';
import type { ArgoNodeResult } from '@app/testing/agent/argo-reply.js';
import { firstJsonValue } from '@app/testing/agent/json-decode.js';
import { decodeReply, type DecodedReply } from '@app/testing/agent/plugin-rpc-client.js';
import type { Exchange } from './wire-tap.js';

/** How a 200 body fares in the agent's decoder, split by the rule that owns each kind of problem. */
export type ReplyCheck =
  | { ok: true; reply: DecodedReply | null; node?: ArgoNodeResult }
  | { ok: false; rule: 'json-body' | 'requeue-format'; problem: string };

export function checkReply(exchange: Exchange): ReplyCheck {
  if (exchange.error) return { ok: false, rule: 'json-body', problem: `body cut short (${exchange.error})` };
  let value: unknown;
  try {
    value = JSON.parse(firstJsonValue(exchange.text).toString('utf8'));
  } catch (err) {
    return { ok: false, rule: 'json-body', problem: (err as Error).message };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const requeue = (value as Record<string, unknown>).requeue;
    if (requeue !== undefined && requeue !== null) {
      if (typeof requeue !== 'string') {
        return {
          ok: false,
          rule: 'requeue-format',
          problem: `requeue is a ${typeof requeue} (${JSON.stringify(requeue)}), not a duration string`,
        };
      }
      try {
        parseDuration(requeue);
      } catch (err) {
        return { ok: false, rule: 'requeue-format', problem: (err as Error).message };
      }
    }
  }
  try {
    const reply = decodeReply(exchange.text);
    return { ok: true, reply, node: reply?.node };
  } catch (err) {
    return { ok: false, rule: 'json-body', problem: (err as Error).message };
  }
}

/** Every 200 exchange with its check. */
export function checked200s(exchanges: Exchange[]): Array<{ exchange: Exchange; check: ReplyCheck }> {
  return exchanges
    .filter((e) => e.status === 200)
    .map((exchange) => ({ exchange, check: checkReply(exchange) }));
}
