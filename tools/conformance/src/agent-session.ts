import type { ArgoNodeResult } from '@app/argo-agent/argo-reply.js';
import {
  PluginCallError,
  PluginRpcClient,
  type CallRecord,
  type DecodedReply,
  type RpcTiming,
} from '@app/argo-agent/plugin-rpc-client.js';
import { excerpt } from './excerpt.js';
import type { Evidence } from './rule.js';
import type { Exchange, Purpose, WireTap } from './wire-tap.js';

/** One `template.execute` call as the agent makes it (all retries included). */
export interface CallOutcome {
  purpose: Purpose;
  label: string;
  /** The decoded reply; null for `{}`/`null`/404 (not executed by this plugin). Undefined when `error` is set. */
  reply?: DecodedReply | null;
  error?: PluginCallError;
  /** True when the agent did not even call: an earlier 404 in this workflow disabled the plugin. */
  suppressed: boolean;
  /** One record per HTTP attempt (status, error, time), from the client itself. */
  attempts: CallRecord[];
  /** The same attempts as seen on the wire (raw bodies); identical concurrent bodies share them. */
  exchanges: Exchange[];
  ms: number;
}

export const lastStatus = (o: CallOutcome): number | undefined => o.attempts.at(-1)?.status;

/** Every attempt ran into the client's timeout: the plugin kept the agent waiting, a reply never completed. */
export const timedOut = (o: CallOutcome): boolean =>
  o.attempts.length > 0 && o.attempts.every((a) => /Client\.Timeout/.test(a.error ?? ''));

/**
 * The agent's view of one workflow: Argo's RPC client (timeout, retries with backoff, 404 = method
 * unsupported for the rest of the workflow, 503 = retry), pointed at the wire tap. A client per call keeps
 * the attempt records of concurrent calls apart; the 404 memory is shared like the agent's.
 */
export class AgentSession {
  private disabled = false;

  constructor(
    private readonly tap: WireTap,
    private readonly token: string,
    private readonly timing: RpcTiming,
    private readonly record: (outcome: CallOutcome) => void,
    /** The run stopped: no new call is made, and retries are abandoned. */
    private readonly signal?: AbortSignal,
  ) {}

  async call(purpose: Purpose, label: string, body: string): Promise<CallOutcome> {
    this.tap.tag(body, purpose, label);
    const started = performance.now();
    if (this.signal?.aborted) {
      // Not recorded: no rule judges a call that was never made.
      const error = new PluginCallError('not called: the run stopped', false);
      return { purpose, label, error, suppressed: true, attempts: [], exchanges: [], ms: 0 };
    }
    if (this.disabled) {
      const outcome: CallOutcome = {
        purpose,
        label,
        reply: null,
        suppressed: true,
        attempts: [],
        exchanges: [],
        ms: 0,
      };
      this.record(outcome);
      return outcome;
    }
    const client = new PluginRpcClient(
      { name: 'plugin', url: this.tap.url, token: this.token },
      this.timing,
      Math.random,
      this.signal,
    );
    const outcome: CallOutcome = {
      purpose,
      label,
      suppressed: false,
      attempts: client.calls,
      exchanges: [],
      ms: 0,
    };
    try {
      outcome.reply = await client.executeTemplate(body);
    } catch (err) {
      outcome.error = err instanceof PluginCallError ? err : new PluginCallError(String(err), false);
    }
    if (client.unsupported) this.disabled = true;
    outcome.ms = Math.round(performance.now() - started);
    outcome.exchanges = this.tap.forBody(body);
    this.record(outcome);
    return outcome;
  }
}

/** What the agent would do with the outcome, in words. */
export function describeOutcome(o: CallOutcome, mask: (s: string) => string): string {
  if (o.suppressed) return 'not called: an earlier 404 disabled the plugin for this workflow';
  if (o.error) return `node Failed: ${o.error.message}`;
  const status = lastStatus(o);
  if (!o.reply)
    return status === 404 ? '404: plugin disabled for the rest of the workflow' : 'not executed ({} or null)';
  return describeNode(o.reply.node, mask, o.reply.requeue);
}

export function describeNode(
  node: ArgoNodeResult | undefined,
  mask: (s: string) => string,
  requeue?: string,
): string {
  if (!node) return 'no node';
  const phase = node.phase || '(no phase)';
  const message = node.message ? `: ${excerpt(node.message, mask, 100)}` : '';
  return `${phase}${message}${requeue ? ` (requeue ${requeue})` : ''}`;
}

/** Evidence lines for a call: the last wire exchange (status, body excerpt) and what the agent made of it. */
export function callEvidence(what: string, o: CallOutcome, mask: (s: string) => string): Evidence {
  const last = o.exchanges.at(-1);
  const attempts = o.attempts.length > 1 ? `${o.attempts.length} attempts; ` : '';
  return {
    what,
    status: lastStatus(o),
    body: last ? excerpt(last.error ? `${last.error} ${last.text}` : last.text, mask) : undefined,
    ms: o.ms,
    note: mask(`${attempts}${describeOutcome(o, mask)}`),
  };
}
