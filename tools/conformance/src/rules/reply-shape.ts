import { isNodePhase } from '@app/contract';
import { callEvidence, lastStatus } from '../agent-session.js';
import { excerpt, plural } from '../excerpt.js';
import { checked200s } from '../reply-check.js';
import { fail, pass, skip, type Evidence, type Rule } from '../rule.js';
import type { Exchange } from '../wire-tap.js';

export function exchangeEvidence(e: Exchange, mask: (s: string) => string, note?: string): Evidence {
  return { what: `${e.purpose}: ${e.label}`, status: e.status, body: excerpt(e.text, mask), ms: e.ms, note };
}

/** At most a few examples of each problem: the count says the rest. */
export const examples = <T>(items: T[], n = 3): T[] => items.slice(0, n);

export const jsonBody: Rule = {
  id: 'json-body',
  name: 'every 200 carries a JSON body the agent can decode',
  severity: 'breaks-workflow',
  stage: 'judge',
  why: 'the agent decodes every 200 with json.Decoder: an empty body fails the node with "EOF"; an array, a string or a node of the wrong shape is a decode error; a truncated body is retried, then fails',
  async run(ctx) {
    const all = checked200s(ctx.exchanges);
    if (all.length === 0) return skip('no 200 reply was received to judge');
    const bad = all.filter((c) => !c.check.ok && c.check.rule === 'json-body');
    if (bad.length > 0) {
      const evidence = examples(bad).map(({ exchange, check }) =>
        exchangeEvidence(exchange, ctx.mask, check.ok ? undefined : `agent: ${check.problem}`),
      );
      const first = bad[0].check;
      return fail(
        `${plural(bad.length, 'reply', 'replies')} of ${all.length} not decodable (${first.ok ? '' : first.problem})`,
        evidence,
      );
    }
    return pass(`${plural(all.length, '200 reply', '200 replies')}, all decodable JSON`);
  },
};

export const status200: Rule = {
  id: 'status-200',
  name: 'own templates are answered with status 200 exactly',
  severity: 'breaks-workflow',
  stage: 'judge',
  why: 'only 200 is success: 201, 204 and every other status except 404 and 503 fail the node ("201 Created: ..."); a dropped connection is retried five times, then fails it',
  async run(ctx) {
    const own = ctx.outcomes.filter((o) => o.purpose === 'own' && !o.suppressed);
    if (own.length === 0) return skip('no own-template call was made');
    const bad = own.filter((o) => o.error && lastStatus(o) !== 200);
    if (bad.length > 0) {
      const statuses = [...new Set(bad.map((o) => lastStatus(o) ?? 'no reply'))];
      return fail(
        `${plural(bad.length, 'call')} of ${own.length} answered ${statuses.join(', ')}: ${bad[0].error?.message}`,
        examples(bad).map((o) => callEvidence(o.label, o, ctx.mask)),
      );
    }
    return pass(`${plural(own.length, 'own-template call')}, all answered 200`);
  },
};

export const nodePhase: Rule = {
  id: 'node-phase',
  name: "every node in a reply has one of Argo's phases, spelled exactly",
  severity: 'breaks-workflow',
  stage: 'judge',
  why: 'the controller copies the phase onto the node as it is (controller/taskset.go reconcileTaskSet) and only Pending, Running, Succeeded, Skipped, Failed, Error and Omitted (case-sensitive) ever complete it: "Done" or "succeeded" leaves the node unfinished, and a node without a phase is never even reported (executor/agent.go taskWorker), so without a requeue it hangs',
  async run(ctx) {
    const nodes = checked200s(ctx.exchanges).filter((c) => c.check.ok && c.check.node);
    if (nodes.length === 0) return skip('no reply with a node was received to judge');
    const problem = (c: (typeof nodes)[number]): string | undefined => {
      if (!c.check.ok) return undefined;
      const phase = c.check.node?.phase;
      if (!phase)
        return (c.check.reply?.requeueMs ?? 0) > 0
          ? undefined
          : 'a node without a phase and no requeue: never reported, never called again';
      return isNodePhase(phase)
        ? undefined
        : `phase "${phase}" is not one of Argo's: the node never completes`;
    };
    const bad = nodes.filter((c) => problem(c) !== undefined);
    if (bad.length > 0) {
      return fail(
        `${plural(bad.length, 'reply', 'replies')} of ${nodes.length} with a node Argo cannot finish (${problem(bad[0])})`,
        examples(bad).map(({ exchange, ...c }) =>
          exchangeEvidence(exchange, ctx.mask, problem({ exchange, ...c })),
        ),
      );
    }
    return pass(`${plural(nodes.length, 'reply', 'replies')} with a node, every phase one of Argo's`);
  },
};
