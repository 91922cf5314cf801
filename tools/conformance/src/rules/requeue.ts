import { plural } from '../excerpt.js';
import { checked200s } from '../reply-check.js';
import { fail, pass, skip, type Rule } from '../rule.js';
import { examples, exchangeEvidence } from './reply-shape.js';

export const requeueFormat: Rule = {
  id: 'requeue-format',
  name: 'requeue, when present, is a Go duration string',
  severity: 'breaks-workflow',
  stage: 'judge',
  why: 'requeue is a *metav1.Duration decoded from a JSON string with time.ParseDuration: a number (30), "" or "30 seconds" is a decode error that fails the node, whatever its phase',
  async run(ctx) {
    const all = checked200s(ctx.exchanges);
    if (all.length === 0) return skip('no 200 reply was received to judge');
    const bad = all.filter((c) => !c.check.ok && c.check.rule === 'requeue-format');
    if (bad.length > 0) {
      const first = bad[0].check;
      return fail(
        `${plural(bad.length, 'reply', 'replies')} with an invalid requeue: ${first.ok ? '' : first.problem}`,
        examples(bad).map(({ exchange, check }) =>
          exchangeEvidence(exchange, ctx.mask, check.ok ? undefined : check.problem),
        ),
      );
    }
    return pass(`no invalid requeue in ${plural(all.length, '200 reply', '200 replies')}`);
  },
};

export const requeueOnRunning: Rule = {
  id: 'requeue-on-running',
  name: 'Pending and Running replies carry a positive requeue',
  severity: 'breaks-workflow',
  stage: 'judge',
  why: 'the agent calls again only after a requeue: Running or Pending without one (or with "0s") is applied to the node and never polled again, so the node hangs until the workflow deadline',
  async run(ctx) {
    const running = checked200s(ctx.exchanges).filter(
      (c) => c.check.ok && (c.check.node?.phase === 'Running' || c.check.node?.phase === 'Pending'),
    );
    if (running.length === 0) {
      return skip(
        'no Pending or Running reply was seen (a --config that starts long-running work exercises this)',
      );
    }
    const bad = running.filter((c) => !(c.check.ok && (c.check.reply?.requeueMs ?? 0) > 0));
    if (bad.length > 0) {
      return fail(
        `${plural(bad.length, 'Pending/Running reply', 'Pending/Running replies')} without a positive requeue: the node would hang`,
        examples(bad).map(({ exchange }) => exchangeEvidence(exchange, ctx.mask)),
      );
    }
    return pass(
      `${plural(running.length, 'Pending/Running reply', 'Pending/Running replies')}, each with a requeue`,
    );
  },
};

export const noRequeueOnFailed: Rule = {
  id: 'no-requeue-on-failed',
  name: 'Failed replies carry no requeue',
  severity: 'hygiene',
  stage: 'judge',
  why: 'with Failed + requeue the node is recorded Failed at once, yet the agent calls again after the requeue and patches the later result onto the finished node (inferred from the agent code)',
  async run(ctx) {
    const failed = checked200s(ctx.exchanges).filter(
      (c) => c.check.ok && (c.check.node?.phase === 'Failed' || c.check.node?.phase === 'Error'),
    );
    if (failed.length === 0) return skip('no Failed reply was seen');
    const bad = failed.filter((c) => c.check.ok && (c.check.reply?.requeueMs ?? 0) > 0);
    if (bad.length > 0) {
      return fail(
        `${plural(bad.length, 'Failed reply', 'Failed replies')} with a requeue`,
        examples(bad).map(({ exchange }) => exchangeEvidence(exchange, ctx.mask)),
      );
    }
    return pass(`${plural(failed.length, 'Failed reply', 'Failed replies')}, none with a requeue`);
  },
};
