import { callEvidence, lastStatus, type CallOutcome } from '../agent-session.js';
import { plural } from '../excerpt.js';
import { describeEnd } from '../poll.js';
import { fail, pass, skip, type Evidence, type Rule } from '../rule.js';

const CONCURRENT = 16;
const REPEATED = 3;
const AFTER_END = 2;

/** "Running ×15, Succeeded ×1" */
function tally(outcomes: CallOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const key = o.error
      ? `error (${o.error.message.slice(0, 60)})`
      : (o.reply?.node?.phase ?? 'not executed');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
}

/**
 * A reply to a duplicate that would change the node: an error status or no reply, Failed, or "not mine".
 * A 200 the agent cannot decode is left to json-body and requeue-format: it fails any call, not duplicates.
 */
function contradicts(o: CallOutcome): boolean {
  if (o.error) return lastStatus(o) !== 200;
  const phase = o.reply?.node?.phase;
  return !phase || phase === 'Failed' || phase === 'Error';
}

export const idempotency: Rule = {
  id: 'idempotency',
  name: 'identical calls, concurrent or repeated, give one outcome and one upstream side effect',
  severity: 'breaks-workflow',
  stage: 'probe',
  why: 'the request carries no node id, and the agent sends the same request again on every requeue, after a timeout or a dropped connection, and after an agent restart; 16 task workers call concurrently',
  async run(ctx) {
    if (!ctx.hasConfig) return skip('needs --config: an example body that does something');
    const body = ctx.ownBody(ctx.workflow('idempotency'));
    const session = ctx.session();
    const call = (): Promise<CallOutcome> => session.call('own', 'idempotency', body);
    const before = await ctx.count();
    const burst = await Promise.all(Array.from({ length: CONCURRENT }, call));
    const repeated: CallOutcome[] = [];
    for (let i = 0; i < REPEATED; i++) repeated.push(await call());
    const polled = await ctx.poll(session, 'own', 'idempotency', body);
    const after: CallOutcome[] = [];
    for (let i = 0; i < AFTER_END; i++) after.push(await call());
    const effects = await ctx.effectsSince(before);

    const evidence: Evidence[] = [
      {
        what: `${CONCURRENT} concurrent identical calls`,
        note: tally(burst),
        ms: Math.max(...burst.map((o) => o.ms)),
      },
      { what: `${REPEATED} repeated calls at once`, note: tally(repeated) },
      {
        what: `polled as the agent does (${plural(polled.calls.length, 'call')})`,
        note: ctx.mask(describeEnd(polled)),
        ms: polled.ms,
      },
      { what: `${AFTER_END} more calls after the end`, note: tally(after) },
      ...(effects ? [effects.evidence] : []),
    ];
    if (polled.kind !== 'final' || polled.node?.phase !== 'Succeeded') {
      return skip(
        `the example body did not succeed (${ctx.mask(describeEnd(polled))}): give a --config that succeeds`,
        evidence,
      );
    }
    const bad = [...burst, ...repeated, ...after].filter(contradicts);
    if (bad.length > 0) {
      return fail(
        `${plural(bad.length, 'duplicate call')} got an answer that would change the node (${tally(bad)})`,
        [...evidence, ...bad.slice(0, 2).map((o) => callEvidence('duplicate call', o, ctx.mask))],
      );
    }
    const notFinal = after.filter((o) => o.reply?.node?.phase !== 'Succeeded');
    if (notFinal.length > 0) {
      return fail(
        `after Succeeded, the same request answered ${tally(notFinal)}: it must return the same status`,
        evidence,
      );
    }
    if (effects && effects.delta !== 1) {
      return fail(
        `${plural(effects.delta, 'upstream side effect')} for ${CONCURRENT + REPEATED + polled.calls.length + AFTER_END} identical calls (expected exactly 1)`,
        evidence,
      );
    }
    const total = CONCURRENT + REPEATED + polled.calls.length + AFTER_END;
    return pass(
      `${total} identical calls, one outcome (Succeeded)${effects ? ', exactly 1 upstream side effect' : '; side effects not counted (no --count-url)'}`,
      evidence,
    );
  },
};
