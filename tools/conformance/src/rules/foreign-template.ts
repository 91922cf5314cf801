import { callEvidence, lastStatus, type CallOutcome } from '../agent-session.js';
import { plural } from '../excerpt.js';
import { executeBody } from '../requests.js';
import { fail, pass, type Rule } from '../rule.js';

/** Fine for the agent: 200 and no node, so it moves on to the next plugin. */
function declined(o: CallOutcome): boolean {
  return !o.suppressed && !o.error && lastStatus(o) === 200 && !o.reply?.node;
}

export const foreignTemplate: Rule = {
  id: 'foreign-template',
  name: "another plugin's template is answered 200 with {} or null, with no side effect",
  severity: 'breaks-workflow',
  stage: 'probe',
  why: "the agent offers every plugin template to every plugin in turn: an error status fails the other plugin's node, a node in the reply takes the template over, and a 404 disables this plugin for the rest of the workflow",
  async run(ctx) {
    const session = ctx.session();
    const meta = ctx.workflow('foreign');
    const foreign = ctx.foreignKey;
    const bodies: Array<[string, unknown]> = [
      [`template for "${foreign}" with an empty body`, {}],
      [`template for "${foreign}" with a body like this plugin's`, ctx.ownConfig],
    ];
    const before = await ctx.count();
    const outcomes: Array<[string, CallOutcome]> = [];
    for (const [what, pluginBody] of bodies) {
      const body = executeBody(meta, foreign, pluginBody);
      outcomes.push([what, await session.call('foreign', what, body)]);
    }
    const effects = await ctx.effectsSince(before);
    const evidence = [
      ...outcomes.map(([what, o]) => callEvidence(what, o, ctx.mask)),
      ...(effects ? [effects.evidence] : []),
    ];
    const bad = outcomes.filter(([, o]) => !declined(o));
    if (bad.length > 0) {
      const first = bad[0][1];
      const why =
        lastStatus(first) === 404
          ? '404: the agent disables this plugin for the rest of the workflow, so its own templates then fail with "no plugin executed the template"'
          : first.reply?.node
            ? "the reply has a node: the agent takes it as the result of the other plugin's template"
            : `the agent fails the other plugin's node: ${first.error?.message ?? 'error'}`;
      return fail(`${plural(bad.length, 'foreign template')} not declined: ${why}`, evidence);
    }
    if (effects && effects.delta !== 0) {
      return fail(`declined with {}, but the upstream saw ${plural(effects.delta, 'side effect')}`, evidence);
    }
    return pass(
      `200 without a node for ${plural(outcomes.length, 'foreign template')}${effects ? ', no upstream side effect' : ''}`,
      evidence,
    );
  },
};
