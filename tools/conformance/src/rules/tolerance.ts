import type { RunContext } from '../context.js';
import { describeEnd, endKey, type PollOutcome } from '../poll.js';
import { EXTRA_TEMPLATE_FIELDS, reversedKeys } from '../requests.js';
import { fail, pass, skip, type Evidence, type Rule, type RuleVerdict } from '../rule.js';

/** The plain template's end, or a skip when it is no reference (the reasons belong to other rules). */
async function reference(ctx: RunContext): Promise<PollOutcome | RuleVerdict> {
  const baseline = await ctx.baseline();
  if (baseline.kind === 'error' || baseline.kind === 'timeout') {
    return skip(
      `the plain template got no usable reply (${ctx.mask(describeEnd(baseline))}): nothing to compare with`,
    );
  }
  if (baseline.kind === 'not-executed') {
    return skip(`the plugin declined its own key "${ctx.target.key}" ({} or 404): is --key right?`);
  }
  return baseline;
}

const endEvidence = (what: string, p: PollOutcome, mask: (s: string) => string): Evidence => ({
  what,
  note: mask(describeEnd(p)),
  ms: p.ms,
});

export const extraTemplateFields: Rule = {
  id: 'extra-template-fields',
  name: 'extra template fields are ignored (retryStrategy, timeout, metadata.labels, inputs.parameters[].default)',
  severity: 'breaks-workflow',
  stage: 'probe',
  why: 'the agent sends the whole resolved template, Go field order, inputs/outputs/metadata always present; authors add retryStrategy, timeout, labels and defaulted parameters to any template',
  async run(ctx) {
    const baseline = await reference(ctx);
    if ('status' in baseline) return baseline;
    const body = ctx.ownBody(ctx.workflow('extra-fields'), undefined, EXTRA_TEMPLATE_FIELDS);
    const variant = await ctx.poll(ctx.session(), 'own', 'extra template fields', body);
    const evidence = [
      endEvidence('plain template', baseline, ctx.mask),
      endEvidence('with extra template fields', variant, ctx.mask),
    ];
    if (endKey(variant) !== endKey(baseline)) {
      return fail(
        `with extra template fields the node ends "${ctx.mask(describeEnd(variant))}" instead of "${ctx.mask(describeEnd(baseline))}"`,
        evidence,
      );
    }
    return pass(
      `same end with and without extra fields (${baseline.node?.phase ?? baseline.kind})`,
      evidence,
    );
  },
};

export const keyOrder: Rule = {
  id: 'key-order',
  name: 'the key order inside the plugin body does not matter',
  severity: 'breaks-workflow',
  stage: 'probe',
  why: 'the body goes through the apiserver as unstructured data: its key order is not the order the author wrote (typically alphabetical)',
  async run(ctx) {
    if (!ctx.hasConfig) return skip('needs --config: an example body with several keys');
    const sent = JSON.stringify(ctx.ownConfig);
    const candidates: Array<[string, unknown]> = [
      ['keys in reverse order', reversedKeys(ctx.target.config)],
      ['keys in the order of the config file', ctx.target.config],
    ];
    const variants = candidates.filter(
      ([, v], i) =>
        JSON.stringify(v) !== sent &&
        candidates.findIndex(([, w]) => JSON.stringify(w) === JSON.stringify(v)) === i,
    );
    if (variants.length === 0)
      return skip('the example body has one key at every level: its order cannot vary');
    const baseline = await reference(ctx);
    if ('status' in baseline) return baseline;
    const evidence = [endEvidence('keys sorted (as the apiserver returns them)', baseline, ctx.mask)];
    for (const [what, pluginBody] of variants) {
      const variant = await ctx.poll(
        ctx.session(),
        'own',
        what,
        ctx.ownBody(ctx.workflow('key-order'), pluginBody),
      );
      evidence.push(endEvidence(what, variant, ctx.mask));
      if (endKey(variant) !== endKey(baseline)) {
        return fail(
          `with ${what} the node ends "${ctx.mask(describeEnd(variant))}" instead of "${ctx.mask(describeEnd(baseline))}"`,
          evidence,
        );
      }
    }
    return pass(
      `same end for ${variants.length + 1} key orders (${baseline.node?.phase ?? baseline.kind})`,
      evidence,
    );
  },
};
